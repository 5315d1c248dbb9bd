// Two gateway processes on one data folder: the second is refused with a clear message and a
// non-zero exit; after `kill -9` of the first, its stale lock is taken over by the next start.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { SLOW_TEST_MS } from '../helpers/patience.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

test('a second server on the same data folder is refused until the first is killed with kill -9', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-lock-proc-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { SEXTANT_DATA_DIR: dataDir, SEXTANT_SEED_DEMO: 'false' };
  const first = await startGatewayProcess(nodeEntry('src/main.ts'), env);
  t.teardown(() => void first.proc.kill('SIGKILL'));
  t.is(readFileSync(join(dataDir, 'sextant.lock'), 'utf8').trim(), String(first.proc.pid));

  const refused = await t.throwsAsync(startGatewayProcess(nodeEntry('src/main.ts'), env));
  t.regex(refused!.message, /exited with 1/);
  t.regex(refused!.message, new RegExp(`Another Sextant process \\(pid ${first.proc.pid}\\) serves the data folder`));
  t.is((await fetch(`${first.url}/api/health`)).status, 200, 'the first server goes on');

  first.proc.kill('SIGKILL');
  await first.exited;
  const next = await startGatewayProcess(nodeEntry('src/main.ts'), env);
  t.teardown(() => void next.proc.kill('SIGKILL'));
  t.is(readFileSync(join(dataDir, 'sextant.lock'), 'utf8').trim(), String(next.proc.pid));
  next.proc.kill('SIGTERM');
  t.is(await next.exited, 0);
  t.throws(() => readFileSync(join(dataDir, 'sextant.lock')), { code: 'ENOENT' }, 'a clean exit removes the lock');
});
