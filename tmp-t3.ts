import { DuckDBInstance, DuckDBScalarFunction, BOOLEAN } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
const setup = await inst.connect();
await setup.run("ATTACH '/tmp/rec/wh2.duckdb' AS w2");
await setup.run("CREATE OR REPLACE MACRO w2.main.sextant_step() AS false");
await setup.run("DETACH w2");
console.log('macro made');
const conn = await inst.connect();
await conn.run("ATTACH '/tmp/rec/wh2.duckdb' AS wh (READ_ONLY)");
await conn.run("USE wh");
let steps = 0; const cap = 10000;
conn.registerScalarFunction(DuckDBScalarFunction.create({ name: 'sextant_step', returnType: BOOLEAN, volatile: true, mainFunction: (info, input, out) => {
  steps += input.rowCount;
  if (steps > cap) { info.setError('past cap'); return; }
  for (let i = 0; i < input.rowCount; i++) out.setItem(i, true);
  out.flush();
}}));
await conn.run('SET enable_external_access = false');
await conn.run('SET lock_configuration = true');
console.log('registered');
for (const sql of process.argv.slice(2)) {
  steps = 0; const t0 = performance.now();
  try { const r = await conn.runAndReadAll(sql); console.log(sql, JSON.stringify(r.getRowsJson()).slice(0, 1500), steps, performance.now() - t0); } catch (e) { console.log(sql, 'ERR', (e as Error).message, steps, performance.now() - t0); }
}
process.exit(0);
