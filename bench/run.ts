// `npm run bench`: runs every benchmark listed here, one after the other.
const BENCHES = ['./agent.ts'];

for (const file of BENCHES) {
  const mod = (await import(file)) as { run: () => Promise<void> };
  process.stdout.write(`\n== ${file}\n`);
  await mod.run();
}
