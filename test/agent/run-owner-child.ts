// The owner replica of run-owners-kill.test.ts, as a process of its own: it starts one run on the
// store file (its model never answers), commits the run's first events, says so on stdout as one line
// of JSON and keeps the run going, heartbeats and all, until it is killed.
import { AgentRuns, memoryChats, memoryKnowledge, noUploads, type LlmProvider } from '../../src/agent/index.ts';
import type { Principal } from '../../src/auth/index.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';

const [file, chatId] = process.argv.slice(2) as [string, string];
const principal: Principal = { userId: 'u1', email: 'u1@example.com', orgId: 'o1', baseOrgId: 'o1', role: 'user', permissions: [], credential: 'session', scopes: [] };
const config = loadConfig({ SEXTANT_DATA_DIR: '/tmp/sextant-run-owner-child', SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' }).agent;
const hanging: LlmProvider = {
  name: 'hanging',
  model: 'hanging',
  async *stream() {
    yield { type: 'text_delta', text: 'partial' };
    await new Promise(() => {});
  },
};

const store = openStore({ file });
const runs = new AgentRuns({
  store: sqliteExecutor(store.db),
  clock: systemClock,
  log: createLogger('silent'),
  config,
  provider: hanging,
  ports: { knowledge: memoryKnowledge({ tables: [] }), queries: { run: () => Promise.reject(new Error('no warehouse')) }, uploads: noUploads, chats: memoryChats(), profiles: { profile: async () => ({ name: '', background: '', memories: [] }) } },
  shutdown: new AbortController().signal,
});
await runs.ready();
const started = await runs.start(principal, { chatId, message: 'How many orders?', environmentId: undefined });
// The model's first piece joins the log in a later turn; then everything so far is committed.
while (!(await runs.events(started.row)).some((e) => e.event.type === 'text_delta')) await new Promise((resolve) => setImmediate(resolve));
await runs.flush();
process.stdout.write(`${JSON.stringify({ runId: started.row.id, replicaId: runs.replicaId, lastEventId: (await runs.events(started.row)).at(-1)!.id })}\n`);
// Heartbeat timers are unref'd: this keeps the process (and its run) alive until the kill.
setInterval(() => {}, 60_000);
