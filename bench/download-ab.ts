// A/B of the governed download (BENCH_AB_DIST=<folder of another build>, with BENCH_ENDPOINT_ONLY=1):
// the build in dist/ and the other one serve the same seeded data side by side (each on its own copy
// of the data directory), and each round downloads from both, then runs DuckDB's COPY at two threads
// (the reference) and the download's own COPY in DuckDB alone (the bound), one after the other. On a
// machine whose load swings within a minute, ratios of neighbouring measurements are what can be
// compared; the CPU times (the gateway's own, its query process's, user and kernel) even more so.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFile } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { duckDbCsvCopySql } from '../src/data/export/index.ts';
import { OPTIMIZATION_FENCE } from '../src/data/guard/table-ref.ts';
import { cpuMsOf, freePort, startGateway, treeCpuMsOf } from './gateway-process.ts';

interface Seeded {
  env: Record<string, string> & { SEXTANT_PORT: string; SEXTANT_DATA_DIR: string };
  token: string;
  /** The warehouse file, and a folder for the COPYs' files. */
  file: string;
  dir: string;
  rowFilter: string;
}

const ROUNDS = Number(process.env['BENCH_AB_ROUNDS'] ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The download's time to the last byte and to the first. */
function curlSeconds(url: string): Promise<{ total: number; first: number }> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total} %{time_starttransfer}', url], (err, stdout) => {
      if (err) return reject(err);
      const [status, total, first] = stdout.trim().split(' ');
      if (status !== '200') return reject(new Error(`download answered ${status}`));
      resolve({ total: Number(total), first: Number(first) });
    });
  });
}

/** Runs the rounds and prints each, then the medians. */
export async function downloadAb({ env, token, file, dir, rowFilter }: Seeded, otherDist: string): Promise<void> {
  const dataB = `${env.SEXTANT_DATA_DIR}-b`;
  cpSync(env.SEXTANT_DATA_DIR, dataB, { recursive: true });
  const gateways = [
    { name: 'dist', gw: await startGateway(env, { dist: 'dist' }) },
    { name: otherDist, gw: await startGateway({ ...env, SEXTANT_DATA_DIR: dataB, SEXTANT_PORT: String(await freePort()) }, { dist: otherDist }) },
  ];
  const ref = await DuckDBInstance.create(':memory:', { threads: '2' });
  const refConn = await ref.connect();
  await refConn.run(`ATTACH '${file}' AS wh (READ_ONLY)`);
  const bound = await DuckDBInstance.create(':memory:', { threads: '1' });
  const boundConn = await bound.connect();
  await boundConn.run(`ATTACH '${file}' AS wh (READ_ONLY)`);
  await boundConn.run('USE wh');
  const sql = `SELECT * FROM (SELECT * FROM main.orders WHERE (${rowFilter})${OPTIMIZATION_FENCE.duckdb}) AS orders`;
  const prepared = await boundConn.prepare(sql);
  const columns = Array.from({ length: prepared.columnCount }, (_, i) => ({ name: prepared.columnName(i), type: String(prepared.columnType(i)) }));
  prepared.destroySync();
  const walls = new Map<string, number[]>();
  const note = (k: string, s: number) => walls.set(k, [...(walls.get(k) ?? []), s]);
  try {
    for (const { gw } of gateways) await curlSeconds(`${gw.url}/api/download_big_csv_agentic?chat_id=bench-chat&df_key=df_orders&token=${encodeURIComponent(token)}`);
    for (let round = 1; round <= ROUNDS; round++) {
      const parts: string[] = [];
      for (const { name, gw } of gateways) {
        const own0 = cpuMsOf(gw.pid);
        const tree0 = treeCpuMsOf(gw.pid);
        const { total: s, first } = await curlSeconds(`${gw.url}/api/download_big_csv_agentic?chat_id=bench-chat&df_key=df_orders&token=${encodeURIComponent(token)}`);
        const own1 = cpuMsOf(gw.pid);
        const query = treeCpuMsOf(gw.pid) - tree0 - (own1.user + own1.system - own0.user - own0.system);
        note(name, s);
        parts.push(`${name} ${s.toFixed(2)} s (first byte ${first.toFixed(2)} s; gateway user ${own1.user - own0.user} + sys ${own1.system - own0.system} ms, query process ${query} ms)`);
      }
      for (const [name, conn, copy] of [
        ['reference', refConn, `COPY (SELECT * FROM wh.orders) TO '${join(dir, 'ref.csv')}' (FORMAT csv, HEADER)`],
        ['bound', boundConn, duckDbCsvCopySql({ sql, columns, file: join(dir, 'bound.csv'), newLine: 'crlf' })],
      ] as const) {
        const cpu0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        await conn.run(copy);
        const s = Number(process.hrtime.bigint() - t0) / 1e9;
        const cpu = process.cpuUsage(cpu0);
        note(name, s);
        parts.push(`${name} ${s.toFixed(2)} s (CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms)`);
      }
      console.log(`round ${round}: ${parts.join('; ')}`);
    }
  } finally {
    refConn.closeSync();
    ref.closeSync();
    boundConn.closeSync();
    bound.closeSync();
    for (const { gw } of gateways) await gw.stop();
  }
  const refMedian = median(walls.get('reference')!);
  for (const [name, w] of walls) console.log(`${name.padEnd(12)} median ${median(w).toFixed(2)} s, ${(refMedian / median(w)).toFixed(2)} of the reference COPY at 2 threads (rounds: ${w.map((s) => s.toFixed(2)).join(', ')})`);
}
