import test from 'ava';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openDuckDb } from '../../../src/data/drivers/duckdb-driver.ts';
import { processEntry } from '../../../src/data/drivers/process/process-entry.ts';
import { QueryProcess } from '../../../src/data/drivers/process/query-process.ts';
import { duckdbFixture, tempDir } from '../warehouses.ts';

async function collect(run: (out: PassThrough) => Promise<unknown>): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await run(out);
  out.end();
  return Buffer.concat(chunks).toString('utf8');
}

test('csvCopy writes the governed SELECT as CRLF CSV with a header, and leaves nothing in its folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-export-test-'));
  const driver = await openDuckDb(await duckdbFixture(), { exportDirectory: dir });
  try {
    const copy = (await driver.csvCopy!("SELECT order_id, country, total_amount FROM orders WHERE country = 'France' ORDER BY 1"))!;
    t.deepEqual(copy.columns.map((c) => c.name), ['order_id', 'country', 'total_amount']);
    const text = await collect((out) => copy.run(out));
    t.is(text, 'order_id,country,total_amount\r\n2,France,20.00\r\n5,France,5.00\r\n');
    t.deepEqual(readdirSync(dir), []);
  } finally {
    await driver.close();
  }
});

test('csvCopy refuses anything but a SELECT, and the session cannot write outside its folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-export-test-'));
  const outside = join(tempDir(), 'stolen.csv');
  const driver = await openDuckDb(await duckdbFixture(), { exportDirectory: dir });
  try {
    await t.throwsAsync(driver.csvCopy!(`COPY (SELECT * FROM orders) TO '${outside}'`), { code: 'QUERY_FAILED' });
    const copy = (await driver.csvCopy!('SELECT 1 AS x'))!;
    t.is(await collect((out) => copy.run(out)), 'x\r\n1\r\n');
    t.false(existsSync(outside));
  } finally {
    await driver.close();
  }
});

test('even a statement smuggled past the guard meets the locked-down session of the query process', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-export-test-'));
  const outside = join(tempDir(), 'stolen.csv');
  const proc = new QueryProcess({ entry: await processEntry(), memoryMb: 512 });
  try {
    await proc.call({ op: 'open', engine: 'duckdb', path: (await duckdbFixture()).path, exportDirectory: dir });
    await t.throwsAsync(proc.call({ op: 'run', sql: `COPY (SELECT 1) TO '${outside}'` }), { code: 'QUERY_FAILED' });
    t.false(existsSync(outside));
    t.is((await proc.call({ op: 'run', sql: `COPY (SELECT 1) TO '${join(dir, 'inside.csv')}'` })).rowsChanged, 1);
  } finally {
    proc.kill();
    await proc.exited;
  }
});

test('a session opened without an export folder has no CSV copy to offer', async (t) => {
  const driver = await openDuckDb(await duckdbFixture());
  try {
    await t.throwsAsync(driver.csvCopy!('SELECT 1'));
  } finally {
    await driver.close();
  }
});

test('an export session runs at the threads asked and keeps insertion order, so a download without ORDER BY comes in the order of the result the user saw', async (t) => {
  for (const threads of [1, 2]) {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-export-test-'));
    const driver = await openDuckDb(await duckdbFixture(), { exportDirectory: dir, threads });
    try {
      const copy = (await driver.csvCopy!("SELECT current_setting('threads') AS t, current_setting('preserve_insertion_order') AS o"))!;
      t.is(await collect((out) => copy.run(out)), `t,o\r\n${threads},true\r\n`);
    } finally {
      await driver.close();
    }
  }
});
