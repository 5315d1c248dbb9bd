import { DuckDBInstance, DuckDBScalarFunction, BOOLEAN } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const setup = await inst.connect();
await setup.run("ATTACH '/tmp/rec/wh.duckdb' AS wh");
await setup.run("CREATE OR REPLACE MACRO wh.main.sextant_step() AS false");
await setup.run("DETACH wh");
setup.closeSync();
const conn = await inst.connect();
await conn.run("ATTACH '/tmp/rec/wh.duckdb' AS wh (READ_ONLY)");
await conn.run("USE wh");
let steps = 0; const cap = 1000;
conn.registerScalarFunction(DuckDBScalarFunction.create({ name: 'sextant_step', returnType: BOOLEAN, volatile: true, mainFunction: (info, input, out) => {
  steps += input.rowCount;
  if (steps > cap) { info.setError('past cap'); return; }
  for (let i = 0; i < input.rowCount; i++) out.setItem(i, true);
  out.flush();
}}));
await conn.run('SET enable_external_access = false');
await conn.run('SET lock_configuration = true');
for (const sql of [
  'SELECT sextant_step()',
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT CASE WHEN sextant_step() THEN n + 1 END FROM r WHERE n < 900) SELECT count(*), sum(n) FROM r',
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT CASE WHEN sextant_step() THEN n + 1 END FROM r) SELECT count(*), sum(n) FROM r',
  'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT CASE WHEN system.main.sextant_step() THEN n + 1 END FROM r WHERE n < 900) SELECT count(*), sum(n) FROM r',
]) {
  steps = 0;
  try { const r = await conn.runAndReadAll(sql); console.log(sql, JSON.stringify(r.getRowsJson()), steps); } catch (e) { console.log(sql, 'ERR', (e as Error).message, steps); }
}
const s = await conn.runAndReadAll("SELECT json_serialize_sql('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r UNION ALL SELECT n+2 FROM r) SELECT * FROM r')");
console.log(JSON.stringify(JSON.parse(String(s.getRows()[0]![0])).statements[0].node.cte_map.map[0].value.query.node, null, 0).slice(0, 3000));
