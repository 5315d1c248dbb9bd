// The owner of a run killed with `kill -9` (a process of its own, run-owner-child.ts): another
// replica on the same SQLite file leaves the run alone while the owner lives, then fails it with
// REPLICA_LOST once its heartbeat is stale; the log resumed after the owner's last event ends with
// that end, and the chat takes a new question. The other replica's time is a fake clock.
import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AgentRuns, getRun, memoryChats, memoryKnowledge, noUploads, type LlmProvider } from '../../src/agent/index.ts';
import { LOST_ANSWER, REPLICA_LOST } from '../../src/agent/runs/lost-runs.ts';
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

const principal: Principal = { userId: 'u1', email: 'u1@example.com', orgId: 'o1', baseOrgId: 'o1', role: 'user', permissions: [], credential: 'session', scopes: [] };
const config = loadConfig({ SEXTANT_DATA_DIR: '/tmp/sextant-run-owners-kill', SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' }).agent;
const quick: LlmProvider = {
  name: 'quick',
  model: 'quick',
  async *stream() {
    yield { type: 'text_delta', text: 'ok' };
    yield { type: 'finish', reason: 'stop' };
  },
};

test('a run whose owner process is killed with kill -9 is failed with REPLICA_LOST by another replica, and the chat answers again', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-run-owners-kill-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'sextant.db');
  // The store exists (migrated) before either replica uses it.
  openStore({ file }).close();
  const child = spawn(process.execPath, [...nodeEntry(new URL('./run-owner-child.ts', import.meta.url).pathname), file, 'c1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => void child.kill('SIGKILL'));
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const owner = JSON.parse(line) as { runId: string; replicaId: string; lastEventId: number };

  const store = openStore({ file });
  t.teardown(() => store.close());
  const x = sqliteExecutor(store.db);
  const clock = new FakeClock(Date.now());
  const shutdown = new AbortController();
  t.teardown(() => shutdown.abort());
  const runs = new AgentRuns({ store: x, clock, log: createLogger('silent'), config, provider: quick, ports: { knowledge: memoryKnowledge({ tables: [] }), queries: { run: () => Promise.reject(new Error('no warehouse')) }, uploads: noUploads, chats: memoryChats(), profiles: { profile: async () => ({ name: '', background: '', memories: [] }) } }, shutdown: shutdown.signal, ticker: () => () => {} });
  await runs.ready();
  // Started next to a live owner: its run stays.
  t.like(await getRun(x, owner.runId), { status: 'running', replica_id: owner.replicaId });

  child.kill('SIGKILL');
  await once(child, 'exit');
  clock.advance(runs.liveness.lostAfterMs + runs.liveness.intervalMs);
  t.is(await runs.liveness.sweep(), 1);
  t.like(await getRun(x, owner.runId), { status: 'failed', answer: LOST_ANSWER });
  const run = (await getRun(x, owner.runId))!;
  const resumed = (await runs.events(run, owner.lastEventId)).map((e) => e.event);
  t.like(resumed, [{ type: 'error', code: REPLICA_LOST }, { type: 'completed', status: 'failed', content: LOST_ANSWER }]);
  t.deepEqual((await runs.events(run)).map((e) => e.event.type), ['run_started', 'text_delta', 'error', 'completed']);

  const again = await runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  t.is((await again.done).status, 'completed');
});
