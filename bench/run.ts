// Runs the benchmarks listed here, in order: `npm run bench` for all, `npm run bench -- downloads` for one.
// Benchmarks are not tests: they print numbers for people to read.

const benches: Record<string, () => Promise<void>> = {
  knowledge: async () => void (await import('./knowledge.ts')),
  'knowledge-writes': async () => (await import('./knowledge-writes.ts')).run(),
  downloads: async () => (await import('./downloads.ts')).benchDownloads(),
  chats: async () => (await import('./chats.ts')).run(),
  agent: async () => (await import('./agent.ts')).run(),
  'agent-starts': async () => (await import('./agent-starts.ts')).run(),
  'query-stop': async () => (await import('./query-stop.ts')).run(),
  'query-pool': async () => (await import('./query-pool.ts')).run(),
  guard: async () => (await import('./guard.ts')).run(),
  gateway: async () => (await import('./gateway.ts')).run(),
  web: async () => (await import('./web.ts')).run(),
  answers: async () => (await import('./answers.ts')).run(),
  evaluations: async () => (await import('./evaluations.ts')).run(),
  replicas: async () => (await import('./replicas.ts')).run(),
  import: async () => (await import('./import.ts')).run(),
  catalog: async () => (await import('./catalog.ts')).run(),
  'idle-memory': async () => (await import('./idle-memory.ts')).run(),
  dashboards: async () => (await import('./dashboards.ts')).run(),
  'filter-params': async () => (await import('./filter-params.ts')).run(),
  mixed: async () => (await import('./mixed.ts')).run(),
  subscriptions: async () => (await import('./subscriptions.ts')).run(),
  'test-load': async () => (await import('./test-load.ts')).run(),
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n## ${name}`);
  await run();
}
