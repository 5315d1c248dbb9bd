import { isDeniedFunction } from './src/data/guard/deny-list.ts';
import mysql from 'mysql2/promise';
const c = await mysql.createConnection({ host: '127.0.0.1', user: 'root' });
const [rows] = await c.query("SELECT c.name AS cat, t.name AS name FROM mysql.help_topic t JOIN mysql.help_category c ON c.help_category_id = t.help_category_id WHERE c.name IN ('Miscellaneous Functions', 'Information Functions') ORDER BY 2") as any;
for (const r of rows) { const n = String(r.name).replaceAll('\\', '').replace(/ .*$/, '').replace(/\W.*$/, ''); if (!isDeniedFunction('mysql', n)) process.stdout.write(n + ' '); }
console.log();
const [all] = await c.query("SELECT t.name FROM mysql.help_topic t JOIN mysql.help_category c ON c.help_category_id = t.help_category_id WHERE c.name LIKE '%Functions%'") as any;
console.log(all.length, all.filter((r: any) => /LOAD_FILE|SLEEP|LOCK/.test(r.name)).map((r: any) => r.name));
const [udf] = await c.query('SELECT name FROM mysql.func'); console.log('udf', udf);
await c.end();
