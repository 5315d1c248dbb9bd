// Idle gateway memory (issue 38): the compiled gateway started as `npm start` runs it, with the demo
// organization, its RSS read from /proc as soon as /api/health answers. Twice on one data folder: the
// first start seeds the demo (DuckDB warehouse, knowledge repository), the second finds it seeded, as
// a host's restarts do. Goal: < 100 MB.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGateway, freePort, rssOf, startGateway } from './gateway-process.ts';

const GOAL_MB = 100;

/** Builds dist, starts the gateway twice on one data folder and prints its RSS after each start. */
export async function run(): Promise<void> {
  buildGateway();
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
      console.log(`${label.padEnd(36)} healthy after ${healthyMs.toFixed(0)} ms, RSS ${mb.toFixed(1)} MB (${(mb / GOAL_MB).toFixed(2)}x the goal of < ${GOAL_MB} MB) ${mb < GOAL_MB ? 'OK' : 'MISSED'}`);
      await gateway.stop();
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
