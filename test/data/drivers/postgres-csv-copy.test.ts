import test from 'ava';
import { PassThrough, Writable } from 'node:stream';
import type { CsvCopy, Driver } from '../../../src/data/drivers/driver.ts';
import { DRIVERS } from '../../../src/data/drivers/registry.ts';
import { writeCsv } from '../../../src/data/export/index.ts';
import { postgresFixture, SKIP_PG } from '../warehouses.ts';

const MIXED = [
  `CREATE TABLE mixed (id INTEGER, big BIGINT, amount NUMERIC(12, 2), note TEXT, label VARCHAR(20), flag BOOLEAN,
     day DATE, at TIMESTAMP, at_tz TIMESTAMPTZ, ref UUID)`,
  `INSERT INTO mixed VALUES
     (1, 9007199254740993, 10.50, '=HYPERLINK("http://x")', '+1', true, '2024-02-29', '2024-02-29 10:11:12.5', '2024-02-29 10:11:12+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
     (-2, 3, 0.25, 'line one' || chr(10) || 'line two, "quoted"', '', false, NULL, NULL, NULL, NULL),
     (3, NULL, NULL, NULL, '@me', NULL, '1999-12-31', '2000-01-01 00:00:00', NULL, NULL),
     (4, 5, 1.00, chr(9) || 'tab', '-minus', true, '2024-01-01', '2024-01-01 00:00:00', '2024-01-01 00:00:00+00', NULL)`,
];

async function withDriver(t: import('ava').ExecutionContext, run: (driver: Driver) => Promise<void>) {
  const f = await postgresFixture(MIXED);
  if (!f) return t.pass(SKIP_PG);
  const driver = await DRIVERS.postgresql.open(f.settings, {});
  try {
    await run(driver);
  } finally {
    await driver.close();
    await f.drop();
  }
}

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

/** The same statement through the cursor and the row writer, as the other warehouses are written. */
async function viaRowWriter(driver: Driver, sql: string): Promise<string> {
  const s = await driver.stream(sql);
  const out = new Collect();
  await writeCsv((async function* () {
    for await (const rows of s.batches) yield { columns: s.columns, rows };
  })(), s.columns, out);
  return out.text();
}

async function copied(copy: CsvCopy, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<{ text: string; rows: number }> {
  const out = new Collect();
  const stats = await copy.run(out, opts.signal, opts.timeoutMs);
  return { text: out.text(), rows: stats.rows };
}

test('COPY writes what the row writer writes: CRLF, neutralised text, empty and null fields, line breaks inside quotes', (t) =>
  withDriver(t, async (driver) => {
    const sql = 'SELECT * FROM mixed WHERE id > 0 ORDER BY id';
    const copy = await driver.csvCopy!(sql);
    t.truthy(copy);
    t.deepEqual(copy!.columns.map((c) => c.name), ['id', 'big', 'amount', 'note', 'label', 'flag', 'day', 'at', 'at_tz', 'ref']);
    const { text, rows } = await copied(copy!);
    t.is(rows, 3);
    t.is(text, await viaRowWriter(driver, sql));
    t.true(text.includes(`"'=HYPERLINK(""http://x"")",'+1,true`));
  }));

test('negative numerics stay numbers (the row writer, handed their text, marks them like formulas)', (t) =>
  withDriver(t, async (driver) => {
    const { text } = await copied((await driver.csvCopy!('SELECT id, -amount AS neg FROM mixed WHERE id = 1'))!);
    t.is(text, 'id,neg\r\n1,-10.50\r\n');
  }));

test('results with a type COPY writes differently are left to the row writer, and the session stays usable', (t) =>
  withDriver(t, async (driver) => {
    t.is(await driver.csvCopy!('SELECT id, 1.5::float8 AS f FROM mixed'), undefined);
    t.is(await driver.csvCopy!(`SELECT '{"a": 1}'::jsonb AS j`), undefined);
    t.is(await viaRowWriter(driver, 'SELECT id FROM mixed WHERE id = 3'), 'id\r\n3\r\n');
  }));

test('the server refuses more than one statement before anything runs', (t) =>
  withDriver(t, async (driver) => {
    await t.throwsAsync(driver.csvCopy!('SELECT 1 AS x; SELECT 2 AS y'), { code: 'QUERY_FAILED' });
    await t.throwsAsync(driver.csvCopy!('SELECT 1 AS x) TO STDOUT; COPY (SELECT 2'), { code: 'QUERY_FAILED' });
    t.is((await copied((await driver.csvCopy!('SELECT 1 AS x -- a comment'))!)).text, 'x\r\n1\r\n');
  }));

test('the budget stops a slow COPY in the server with QUERY_TIMEOUT, and the session stays usable', (t) =>
  withDriver(t, async (driver) => {
    const copy = await driver.csvCopy!('SELECT i FROM generate_series(1, 3) i, LATERAL (SELECT pg_sleep(5)) s');
    const started = Date.now();
    await t.throwsAsync(copied(copy!, { timeoutMs: 300 }), { code: 'QUERY_TIMEOUT' });
    t.true(Date.now() - started < 4000);
    t.is(await viaRowWriter(driver, 'SELECT id FROM mixed WHERE id = 3'), 'id\r\n3\r\n');
  }));

test('the caller going away cancels the COPY, and a reader that leaves ends it too', (t) =>
  withDriver(t, async (driver) => {
    const stop = new AbortController();
    const copy = await driver.csvCopy!('SELECT i FROM generate_series(1, 3) i, LATERAL (SELECT pg_sleep(5)) s');
    setTimeout(() => stop.abort(), 200);
    await t.throwsAsync(copied(copy!, { signal: stop.signal }), { code: 'QUERY_CANCELLED' });

    const big = await driver.csvCopy!('SELECT i, repeat(\'x\', 100) AS pad FROM generate_series(1, 2000000) i');
    const out = new PassThrough({ highWaterMark: 1024 });
    let seen = 0;
    out.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > 100_000) out.destroy();
    });
    await t.throwsAsync(big!.run(out), { code: 'EXPORT_ABORTED' });
    t.is(await viaRowWriter(driver, 'SELECT id FROM mixed WHERE id = 3'), 'id\r\n3\r\n');
  }));
