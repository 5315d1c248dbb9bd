// `npm run knowledge:check -- --repair` beside a live service: it takes each repository's write lock
// as the service's writes do, so a write under way keeps its ref lock file and answers as usual.
import test from 'ava';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { createFileLock } from '../../src/git/index.ts';
import { startGatewayProcess, writeDemoProductionDirectly } from '../helpers/gateway-process.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Starts the check as its own process; resolves with its exit status and output. */
function runCheck(dataDir: string, ...args: string[]) {
  const proc = spawn(process.execPath, [...nodeEntry(join(ROOT, 'src', 'knowledge-check.ts')), ...args], { cwd: ROOT, env: { ...process.env, SEXTANT_DATA_DIR: dataDir, SEXTANT_LOG_LEVEL: 'silent' } });
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  const done = new Promise<{ status: number | null; out: string }>((resolve) => proc.once('exit', (status) => resolve({ status, out })));
  return { proc, done };
}

async function demoService(t: { teardown(fn: () => void): void }) {
  const dataDir = fs.mkdtempSync(join(tmpdir(), 'sextant-check-live-'));
  const gateway = await startGatewayProcess(nodeEntry('src/main.ts'), { SEXTANT_DATA_DIR: dataDir, SEXTANT_DEMO_WAREHOUSE_ORDERS: '200', SEXTANT_LOG_LEVEL: 'info' });
  t.teardown(() => {
    gateway.proc.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const res = await fetch(`${gateway.url}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@demo.sextant.local', password: 'demo-admin-password' }) });
  const token = ((await res.json()) as { access_token: string }).access_token;
  await writeDemoProductionDirectly(gateway.url);
  return { dataDir, gateway, token, gitdir: join(dataDir, 'knowledge', 'demo.git') };
}

test('the repair waits for the write that holds the repository lock and leaves its live refs/heads/main.lock alone', async (t) => {
  t.timeout(480_000);
  const { dataDir, gitdir } = await demoService(t);
  const tip = fs.readFileSync(join(gitdir, 'refs', 'heads', 'main'), 'utf8');
  // A writer of another process, mid-write: it holds the repository lock and has made main's lock file.
  const release = await createFileLock({ onLost: () => undefined }).acquire({ key: 'demo', gitdir });
  const mainLock = join(gitdir, 'refs', 'heads', 'main.lock');
  fs.writeFileSync(mainLock, '');
  const check = runCheck(dataDir, '--repair');
  // The check has come for the lock once it leaves its claim beside the repository.
  const claim = `demo.git.lock.owner-`;
  const claimed = () => fs.readdirSync(join(dataDir, 'knowledge')).filter((n) => n.startsWith(claim)).length >= 3;
  let exited = false;
  void check.done.then(() => (exited = true));
  while (!claimed() && !exited) await delay(20);
  t.false(exited, 'the check does not go on while the writer holds the lock');
  t.true(fs.existsSync(mainLock), 'the live lock file is still there');
  // The writer ends: its lock file goes, then the repository lock.
  fs.unlinkSync(mainLock);
  await release();
  const released = performance.now();
  const { status, out } = await check.done;
  t.log(`the check ended ${Math.round(performance.now() - released)} ms after the lock was released`);
  t.is(status, 0, out);
  t.is(fs.readFileSync(join(gitdir, 'refs', 'heads', 'main'), 'utf8'), tip);
});

test('writes through the service while the repair runs all answer 201 and are all kept', async (t) => {
  t.timeout(480_000);
  const { dataDir, gateway, token } = await demoService(t);
  const check = runCheck(dataDir, '--repair');
  let exited = false;
  void check.done.then(() => (exited = true));
  const statuses: number[] = [];
  for (let i = 0; !exited || i < 5; i++) {
    const res = await fetch(`${gateway.url}/api/knowledge/notes?id=during-${i}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `During ${i}`, body: 'written while the check repairs' }),
    });
    statuses.push(res.status);
  }
  const { status, out } = await check.done;
  t.is(status, 0, out);
  t.deepEqual([...new Set(statuses)], [201]);
  const listed = await fetch(`${gateway.url}/api/knowledge/notes`, { headers: { authorization: `Bearer ${token}` } });
  const ids = new Set(((await listed.json()) as { items: { id: string }[] }).items.map((n) => n.id));
  t.true(statuses.every((_, i) => ids.has(`during-${i}`)));
  t.log(`${statuses.length} writes during the check`);
});
