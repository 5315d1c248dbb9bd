// SIGTERM to a real gateway process while two answers stream from a paused model: the one the model
// finishes within the grace period completes, the other is cut with an `error` event and stored as
// failed (never as completed with the partial text), and the process exits 0.
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { startScriptedServer } from '../helpers/llm-servers.ts';
import { collectEvents } from '../helpers/sse.ts';
import { SLOW_TEST_MS } from '../helpers/patience.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

const GRACE_MS = 2500;

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

test('SIGTERM lets a running answer finish within the grace period and cuts the one that does not', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-drain-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const arrived = [deferred(), deferred()];
  const finishFirst = deferred();
  const never = new Promise<void>(() => {});
  const model = await startScriptedServer('openai', (_body, n) => {
    arrived[n]?.resolve();
    return { text: n === 0 ? 'Forty-two orders were placed.' : 'Partial words that must not be kept.', pause: { frames: 2, until: n === 0 ? finishFirst.promise : never } };
  });
  t.teardown(() => model.close());
  const { proc, url, exited } = await startGatewayProcess(nodeEntry('src/main.ts'), {
    SEXTANT_DATA_DIR: dataDir,
    SEXTANT_SHUTDOWN_GRACE_MS: String(GRACE_MS),
    SEXTANT_LLM_PROVIDER: 'openai',
    SEXTANT_LLM_BASE_URL: model.url,
    SEXTANT_LLM_API_KEY: 'scripted',
  });
  t.teardown(() => void proc.kill('SIGKILL'));
  const draining = new Promise<void>((resolve) => proc.stdout.on('data', (d: string) => d.includes('"msg":"shutting down"') && resolve()));
  const login = await fetch(`${url}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'analyst@demo.sextant.local', password: 'demo-analyst-password' }) });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const ask = (chatId: string) =>
    fetch(`${url}/api/agentic/stream`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: chatId, message: 'How many orders?' }) });
  const first = await ask('drain-finishes');
  t.is(first.status, 200);
  const firstEvents = collectEvents(first);
  await arrived[0]!.promise;
  const second = await ask('drain-is-cut');
  t.is(second.status, 200);
  const secondEvents = collectEvents(second);
  await arrived[1]!.promise;

  const started = performance.now();
  proc.kill('SIGTERM');
  await draining;
  // The model finishes the first answer after the drain began.
  finishFirst.resolve();
  const finished = await firstEvents;
  t.is(finished.at(-1)?.event, 'completed');
  t.is(finished.at(-1)?.data?.['status'], 'completed');
  t.true(performance.now() - started < GRACE_MS, 'the finished answer did not wait for the grace period');

  const cut = await secondEvents;
  const error = cut.find((e) => e.event === 'error');
  t.is(error?.data?.['code'], 'RUN_ABORTED');
  t.is(cut.at(-1)?.event, 'completed');
  t.is(cut.at(-1)?.data?.['status'], 'failed');
  t.is(await exited, 0);
  const tookMs = performance.now() - started;
  t.log(`SIGTERM to exit: ${Math.round(tookMs)} ms (grace ${GRACE_MS} ms)`);
  t.true(tookMs >= GRACE_MS - 50 && tookMs < GRACE_MS + 1500, `${Math.round(tookMs)} ms`);

  // What the next start reads: one answer completed, the other failed without its partial text.
  const db = new Database(join(dataDir, 'sextant.db'), { readonly: true });
  t.teardown(() => db.close());
  const runs = db.prepare('SELECT chat_id, status, answer FROM agent_runs ORDER BY created_at').all() as { chat_id: string; status: string; answer: string }[];
  t.deepEqual(runs.map((r) => [r.chat_id, r.status]), [['drain-finishes', 'completed'], ['drain-is-cut', 'failed']]);
  t.is(runs[0]!.answer, 'Forty-two orders were placed.');
  t.false(runs[1]!.answer.includes('Partial'));
});
