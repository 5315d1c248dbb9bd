import { DuckDBInstance, DuckDBScalarFunction, BOOLEAN } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
const conn = await inst.connect();
let steps = 0; const cap = 1000;
conn.registerScalarFunction(DuckDBScalarFunction.create({ name: 'sextant_step', returnType: BOOLEAN, volatile: true, mainFunction: (info, input, out) => {
  steps += input.rowCount;
  if (steps > cap) { info.setError('past cap'); return; }
  for (let i = 0; i < input.rowCount; i++) out.setItem(i, true);
  out.flush();
}}));
console.log('registered');
for (const sql of process.argv.slice(2)) {
  steps = 0;
  try { const r = await conn.runAndReadAll(sql); console.log(sql, JSON.stringify(r.getRowsJson()), steps); } catch (e) { console.log(sql, 'ERR', (e as Error).message, steps); }
}
process.exit(0);
