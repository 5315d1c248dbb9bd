// How many threads DuckDB gets for a CSV export: two where the statement sorts at its top level (the
// sort runs on both, and sends nothing before it ends anyway), else one, which streams from the first row.
import test from 'ava';
import { exportThreads } from '../../../src/data/query/export-threads.ts';
import { startTestApp } from '../../helpers/app.ts';

test('an export opens DuckDB at two threads only where the statement sorts at its top level', async (t) => {
  const app = await startTestApp();
  try {
    const threads = (sql: string, type: 'duckdb' | 'postgresql' = 'duckdb') => exportThreads(app.app.services.data, { sql }, { type });
    t.is(await threads('SELECT * FROM orders ORDER BY id'), 2);
    t.is(await threads('SELECT * FROM orders ORDER BY id DESC LIMIT 10'), 2);
    t.is(await threads('SELECT id FROM orders UNION ALL SELECT id FROM products ORDER BY 1'), 2);
    t.is(await threads('WITH o AS (SELECT * FROM orders) FROM o ORDER BY ALL'), 2);
    t.is(await threads('SELECT * FROM orders'), 1);
    t.is(await threads('SELECT * FROM orders LIMIT 10'), 1);
    t.is(await threads('SELECT customer, count(*) AS n FROM orders GROUP BY customer'), 1);
    t.is(await threads('SELECT * FROM (SELECT * FROM orders ORDER BY id) AS o'), 1, 'a sort below the top level: the rows above it stream');
    t.is(await threads('WITH o AS (SELECT * FROM orders ORDER BY id) SELECT * FROM o'), 1);
    // A statement the guard refuses is governance's to refuse (and log) once the session is open; other warehouses: unused.
    t.is(await threads('DROP TABLE orders'), 1);
    t.is(await threads('SELECT 1; SELECT 2 ORDER BY 1'), 1);
    t.is(await threads('SELECT * FROM orders ORDER BY id', 'postgresql'), 1);
  } finally {
    await app.stop();
  }
});
