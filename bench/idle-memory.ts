// Idle gateway memory and start-up (issue 38): the compiled gateway started as `npm start` runs it,
// with the demo organization, its RSS read from /proc as soon as /api/health answers. Twice on one
// data folder: the first start seeds the demo (DuckDB warehouse, knowledge repository), the second
// finds it seeded, as a host's restarts do. Goals: < 100 MB; the second start healthy in < 1 s; the
// build `npm start` runs first (server and web client) is timed too, with the CPU it took.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGateway, cpuMsOf, freePort, rssOf, startGateway } from './gateway-process.ts';

const GOAL_MB = 100;
const SECOND_START_GOAL_MS = 1000;

/** CPU time (ms) of this process's ended children, from /proc (Linux; ticks of 10 ms). */
function reapedChildrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Builds dist, starts the gateway twice on one data folder and prints its RSS after each start. */
export async function run(): Promise<void> {
  const [built, childCpu] = [performance.now(), reapedChildrenCpuMs()];
  buildGateway();
  console.log(`npm run build (server and web client) ${(performance.now() - built).toFixed(0)} ms, CPU ${reapedChildrenCpuMs() - childCpu} ms in its processes`);
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-idle-memory-'));
  try {
    for (const label of ['first start (seeds the demo)', 'second start (demo already seeded)']) {
      const began = performance.now();
      const gateway = await startGateway({
        SEXTANT_PORT: String(await freePort()),
        SEXTANT_DATA_DIR: dataDir,
        SEXTANT_JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123456789',
        SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
        SEXTANT_COOKIE_KEYS: 'bench-cookie-key',
        SEXTANT_LOG_LEVEL: 'warn',
      });
      const healthyMs = performance.now() - began;
      const mb = rssOf(gateway.pid).rss / 2 ** 20;
      const startGoal = label.startsWith('second') ? ` (${(healthyMs / SECOND_START_GOAL_MS).toFixed(2)}x the goal of < ${SECOND_START_GOAL_MS} ms)` : '';
      console.log(`${label.padEnd(36)} healthy after ${healthyMs.toFixed(0)} ms${startGoal}, CPU ${cpuMsOf(gateway.pid).user + cpuMsOf(gateway.pid).system} ms, RSS ${mb.toFixed(1)} MB (${(mb / GOAL_MB).toFixed(2)}x the goal of < ${GOAL_MB} MB) ${mb < GOAL_MB ? 'OK' : 'MISSED'}`);
      await gateway.stop();
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    // Node reads and parses these certificates, and builds its root store, as every process starts:
    // ~50 ms of CPU and ~2 MB of RSS of each start on the machine where it was found set (issue 38).
    if (process.env['NODE_EXTRA_CA_CERTS']) console.log('NODE_EXTRA_CA_CERTS is set: every start above includes Node loading those certificates');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
