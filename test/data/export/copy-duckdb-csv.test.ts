import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import test from 'ava';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { copyDuckDbCsv, ExportAborted } from '../../../src/data/export/index.ts';

class Collect extends Writable {
  chunks: Buffer[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.chunks.push(chunk);
    cb();
  }
  text() {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

async function withDuck(fn: (conn: DuckDBConnection, dir: string) => Promise<void>, lockDown = false) {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-export-'));
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    if (lockDown) {
      await conn.run(`SET allowed_directories = ['${dir}/']`);
      await conn.run('SET enable_external_access = false');
      await conn.run('SET lock_configuration = true');
    }
    await fn(conn, dir);
    leftovers.push(readdirSync(dir).length);
  } finally {
    conn.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}
const leftovers: number[] = [];
/** Columns as DuckDB describes them (the driver passes what `prepare` reports). */
const cols = (...spec: string[]) => spec.map((s) => ({ name: s.split(' ')[0]!, type: s.split(' ')[1]! }));

test('DuckDB writes the CSV itself and it streams into the destination', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new Collect();
    const stats = await copyDuckDbCsv({ conn, dir, out, columns: cols('id INTEGER', 'txt VARCHAR', 'nothing "NULL"', 'day DATE', 'amount DECIMAL(4,2)'), sql: `SELECT 1 AS id, 'a, "b"' AS txt, NULL AS nothing, DATE '2024-02-29' AS day, 1.50::DECIMAL(4,2) AS amount -- trailing comment\n;` });
    t.is(out.text(), 'id,txt,nothing,day,amount\n1,"a, ""b""",,2024-02-29,1.50\n');
    t.deepEqual(stats, { rows: 1, bytes: Buffer.byteLength(out.text()) });
    t.true(out.writableFinished);
  });
  t.is(leftovers.at(-1), 0);
});

test('a failing query rejects without hanging and leaves no file behind', async (t) => {
  await withDuck(async (conn, dir) => {
    await t.throwsAsync(copyDuckDbCsv({ conn, dir, out: new Collect(), columns: cols('x INTEGER'), sql: 'SELECT * FROM missing_table' }), { message: /missing_table/ });
    // The connection is still usable.
    t.deepEqual((await conn.runAndReadAll('SELECT 42')).getRows(), [[42]]);
  });
  t.is(leftovers.at(-1), 0);
});

test('a query failing after some output fails the destination instead of ending it as if complete', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new Collect();
    const sql = "SELECT CASE WHEN i < 300000 THEN i::VARCHAR ELSE error('boom at ' || i) END AS v FROM range(400000) t(i)";
    await t.throwsAsync(copyDuckDbCsv({ conn, dir, out, columns: cols('v VARCHAR'), sql }), { message: /boom at/ });
    t.false(out.writableFinished);
  });
  t.is(leftovers.at(-1), 0);
});

test('a destination that goes away stops DuckDB instead of blocking it', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new PassThrough({ highWaterMark: 1024 });
    setTimeout(() => out.destroy(), 50);
    await t.throwsAsync(copyDuckDbCsv({ conn, dir, out, columns: cols('i BIGINT', 'r VARCHAR'), sql: "SELECT i, repeat('x', 100) AS r FROM range(50000000) t(i)" }), { instanceOf: ExportAborted });
    t.deepEqual((await conn.runAndReadAll('SELECT 1')).getRows(), [[1]]);
  });
});

test('it works on an instance locked down to the export folder', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new Collect();
    const stats = await copyDuckDbCsv({ conn, dir, out, columns: cols('n BIGINT'), sql: 'SELECT range AS n FROM range(100000)' });
    t.is(stats.rows, 100_000);
    t.is(out.text().split('\n').length, 100_002);
  }, true);
});

test('a destination that is already closed is refused before DuckDB runs', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new PassThrough();
    out.destroy();
    await t.throwsAsync(copyDuckDbCsv({ conn, dir, out, columns: cols('one INTEGER'), sql: 'SELECT 1 AS one' }), { instanceOf: ExportAborted });
  });
  t.is(leftovers.at(-1), 0);
});

test('text cells and headers that would start a spreadsheet formula come out neutralised, numbers stay numbers', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new Collect();
    const sql = `SELECT '=HYPERLINK("http://x")' AS "=h", '+1' AS p, '-x' AS m, '@sum' AS a, chr(9) || 'tab' AS t, chr(13) || 'cr' AS c, -5 AS n, 'ok' AS o`;
    const columns = cols('=h VARCHAR', 'p VARCHAR', 'm VARCHAR', 'a VARCHAR', 't VARCHAR', 'c VARCHAR', 'n INTEGER', 'o VARCHAR');
    await copyDuckDbCsv({ conn, dir, out, columns, sql, newLine: 'crlf' });
    t.is(out.text(), `'=h,p,m,a,t,c,n,o\r\n"'=HYPERLINK(""http://x"")",'+1,'-x,'@sum,'\ttab,"'\rcr",-5,ok\r\n`);
  });
});
