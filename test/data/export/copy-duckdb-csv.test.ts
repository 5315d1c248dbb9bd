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

test('DuckDB writes the CSV itself and it streams into the destination', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new Collect();
    const stats = await copyDuckDbCsv({ conn, dir, out, sql: `SELECT 1 AS id, 'a, "b"' AS txt, NULL AS nothing, DATE '2024-02-29' AS day, 1.50::DECIMAL(4,2) AS amount -- trailing comment\n;` });
    t.is(out.text(), 'id,txt,nothing,day,amount\n1,"a, ""b""",,2024-02-29,1.50\n');
    t.deepEqual(stats, { rows: 1, bytes: Buffer.byteLength(out.text()) });
    t.true(out.writableFinished);
  });
  t.is(leftovers.at(-1), 0);
});

test('a failing query rejects without hanging and leaves no file behind', async (t) => {
  await withDuck(async (conn, dir) => {
    await t.throwsAsync(copyDuckDbCsv({ conn, dir, out: new Collect(), sql: 'SELECT * FROM missing_table' }), { message: /missing_table/ });
    // The connection is still usable.
    t.deepEqual((await conn.runAndReadAll('SELECT 42')).getRows(), [[42]]);
  });
  t.is(leftovers.at(-1), 0);
});

test('a query failing after some output fails the destination instead of ending it as if complete', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new Collect();
    const sql = "SELECT CASE WHEN i < 300000 THEN i::VARCHAR ELSE error('boom at ' || i) END AS v FROM range(400000) t(i)";
    await t.throwsAsync(copyDuckDbCsv({ conn, dir, out, sql }), { message: /boom at/ });
    t.false(out.writableFinished);
  });
  t.is(leftovers.at(-1), 0);
});

test('a destination that goes away stops DuckDB instead of blocking it', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new PassThrough({ highWaterMark: 1024 });
    setTimeout(() => out.destroy(), 50);
    await t.throwsAsync(copyDuckDbCsv({ conn, dir, out, sql: "SELECT i, repeat('x', 100) FROM range(50000000) t(i)" }), { instanceOf: ExportAborted });
    t.deepEqual((await conn.runAndReadAll('SELECT 1')).getRows(), [[1]]);
  });
});

test('it works on an instance locked down to the export folder', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new Collect();
    const stats = await copyDuckDbCsv({ conn, dir, out, sql: 'SELECT range AS n FROM range(100000)' });
    t.is(stats.rows, 100_000);
    t.is(out.text().split('\n').length, 100_002);
  }, true);
});

test('a destination that is already closed is refused before DuckDB runs', async (t) => {
  await withDuck(async (conn, dir) => {
    const out = new PassThrough();
    out.destroy();
    await t.throwsAsync(copyDuckDbCsv({ conn, dir, out, sql: 'SELECT 1' }), { instanceOf: ExportAborted });
  });
  t.is(leftovers.at(-1), 0);
});
