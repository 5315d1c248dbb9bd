import { DuckDBInstance } from '@duckdb/node-api';
import test from 'ava';
import { PassThrough, Writable } from 'node:stream';
import { duckDbBatches, duckDbColumns, ExportAborted, writeCsv, type ColumnInfo, type RowBatch } from '../../../src/data/export/index.ts';

/** A strict RFC 4180 reader, so the tests check the format rather than trust the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i++;
      } else {
        field += ch;
        i++;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (ch === '\r' || ch === '\n' || ch === '"') {
      throw new Error(`bare ${JSON.stringify(ch)} at ${i}`);
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('last line lacks CRLF');
  return rows;
}

class Collect extends Writable {
  chunks: Buffer[] = [];
  maxBuffered = 0;
  constructor(
    private delayMs = 0,
    highWaterMark = 16 * 1024,
  ) {
    super({ highWaterMark });
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error) => void) {
    this.chunks.push(chunk);
    this.maxBuffered = Math.max(this.maxBuffered, this.writableLength);
    if (this.delayMs) setTimeout(cb, this.delayMs);
    else cb();
  }
  text() {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

async function* batches(columns: ColumnInfo[], rows: unknown[][], size = 2): AsyncIterable<RowBatch> {
  for (let i = 0; i < rows.length; i += size) yield { columns, rows: rows.slice(i, i + size) };
}

const cols = (...names: string[]): ColumnInfo[] => names.map((name) => ({ name, type: 'VARCHAR' }));

test('fields with commas, quotes and line breaks are quoted and read back unchanged', async (t) => {
  const values = [
    ['plain', 'with, comma', 'say "hi"'],
    ['line\nbreak', 'crlf\r\nend', ''],
    ['ünïcødé ✓', ' spaced ', '"'],
  ];
  const out = new Collect();
  const stats = await writeCsv(batches(cols('a', 'b,c', 'd"e'), values), cols('a', 'b,c', 'd"e'), out);
  t.deepEqual(parseCsv(out.text()), [['a', 'b,c', 'd"e'], ...values]);
  t.is(stats.rows, 3);
  t.is(stats.bytes, Buffer.byteLength(out.text()));
  t.true(out.text().endsWith('\r\n'));
  t.true(out.writableFinished);
});

test('values of every kind are written in their warehouse form', async (t) => {
  const columns: ColumnInfo[] = [
    { name: 'n', type: 'INTEGER' },
    { name: 'big', type: 'BIGINT' },
    { name: 'flag', type: 'BOOLEAN' },
    { name: 'day', type: 'DATE' },
    { name: 'at', type: 'TIMESTAMP' },
    { name: 'atz', type: 'TIMESTAMP WITH TIME ZONE' },
    { name: 'nothing', type: 'VARCHAR' },
    { name: 'list', type: 'INTEGER[]' },
    { name: 'obj', type: 'JSON' },
    { name: 'bytes', type: 'BLOB' },
  ];
  const row = [1.5, 12345678901234567890n, true, new Date('2024-02-29T00:00:00Z'), new Date('2024-02-29T10:11:12Z'), new Date('2024-02-29T10:11:12.5Z'), null, [1, 2], { a: 'x, y', b: 2n }, Buffer.from('hi')];
  const out = new Collect();
  await writeCsv(batches(columns, [row]), columns, out);
  t.deepEqual(parseCsv(out.text())[1], ['1.5', '12345678901234567890', 'true', '2024-02-29', '2024-02-29 10:11:12', '2024-02-29T10:11:12.500Z', '', '[1,2]', '{"a":"x, y","b":"2"}', 'aGk=']);
});

test('text that would start a spreadsheet formula is neutralised in cells and header, numbers are not', async (t) => {
  const columns: ColumnInfo[] = [{ name: '=h', type: 'VARCHAR' }, { name: 'p', type: 'VARCHAR' }, { name: 'm', type: 'VARCHAR' }, { name: 'a', type: 'VARCHAR' }, { name: 't', type: 'VARCHAR' }, { name: 'c', type: 'VARCHAR' }, { name: 'n', type: 'INTEGER' }];
  const out = new Collect();
  await writeCsv(batches(columns, [['=1+1', '+1', '-x', '@sum(A1)', '\tx', '\rx', -5]]), columns, out);
  t.deepEqual(parseCsv(out.text()), [["'=h", 'p', 'm', 'a', 't', 'c', 'n'], ["'=1+1", "'+1", "'-x", "'@sum(A1)", "'\tx", "'\rx", '-5']]);
});

test('an empty result still writes the header, and the header can be left out', async (t) => {
  const out = new Collect();
  t.deepEqual(await writeCsv(batches(cols('a', 'b'), []), cols('a', 'b'), out), { rows: 0, bytes: 5 });
  t.is(out.text(), 'a,b\r\n');
  const bare = new Collect();
  await writeCsv(batches(cols('a'), [['1']]), cols('a'), bare, { header: false, bom: true });
  t.is(bare.text(), '\uFEFF1\r\n');
});

test('a slow destination holds the writer back, so buffering stays bounded', async (t) => {
  const columns = cols('id', 'text');
  let produced = 0;
  async function* source(): AsyncIterable<RowBatch> {
    for (let b = 0; b < 200; b++) {
      const rows = Array.from({ length: 500 }, (_, i) => [String(b * 500 + i), 'x'.repeat(40)]);
      produced += rows.length;
      yield { columns, rows };
    }
  }
  const out = new Collect(1);
  const stats = await writeCsv(source(), columns, out);
  t.is(stats.rows, 100_000);
  t.is(produced, 100_000);
  // About 4.6 MB went through a 16 KB buffer: never more than one 64 KB chunk waited beyond it.
  t.true(stats.bytes > 4_000_000);
  t.true(out.maxBuffered <= 16 * 1024 + 70 * 1024, `buffered ${out.maxBuffered}`);
});

test('the source is never pulled more than a chunk and a batch ahead of what a slow destination took', async (t) => {
  const columns = cols('id', 'text');
  const batchRows = 100;
  let produced = 0;
  async function* source(): AsyncIterable<RowBatch> {
    for (let b = 0; b < 300; b++) {
      const rows = Array.from({ length: batchRows }, (_, i) => [String(b * batchRows + i).padStart(6, '0'), 'x'.repeat(40)]);
      produced += rows.length;
      yield { columns, rows };
    }
  }
  // Counts the lines it has taken, and how far the source was ahead of them at every write.
  let taken = 0;
  let maxLead = 0;
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, cb) {
      maxLead = Math.max(maxLead, produced - taken);
      for (const byte of chunk) if (byte === 0x0a) taken++;
      setImmediate(cb);
    },
  });
  const stats = await writeCsv(source(), columns, out);
  t.is(stats.rows, 30_000);
  t.is(taken, 30_000 + 1);
  // A line is 49 bytes: a 64 KB chunk is about 1,340 rows, the destination's 16 KB about 330 more, then
  // one batch of 100. A writer that ignored backpressure would run ahead by most of the 30,000 rows.
  t.true(maxLead <= 1_340 + 340 + batchRows, `ran ${maxLead} rows ahead`);
});

test('a destination that goes away stops the export and the source', async (t) => {
  const columns = cols('v');
  let closedSource = false;
  let pulled = 0;
  async function* source(): AsyncIterable<RowBatch> {
    try {
      for (;;) {
        pulled++;
        yield { columns, rows: Array.from({ length: 1000 }, () => ['y'.repeat(100)]) };
      }
    } finally {
      closedSource = true;
    }
  }
  const out = new PassThrough({ highWaterMark: 1024 });
  setTimeout(() => out.destroy(), 20);
  await t.throwsAsync(writeCsv(source(), columns, out), { instanceOf: ExportAborted });
  t.true(closedSource);
  t.true(pulled < 10, `pulled ${pulled} batches`);
});

test('an aborted signal stops the export between batches', async (t) => {
  const controller = new AbortController();
  const columns = cols('v');
  async function* source(): AsyncIterable<RowBatch> {
    yield { columns, rows: [['1']] };
    controller.abort();
    yield { columns, rows: [['2']] };
  }
  const err = await t.throwsAsync(writeCsv(source(), columns, new Collect(), { signal: controller.signal }), { instanceOf: ExportAborted });
  t.is(err?.code, 'EXPORT_ABORTED');
});

test('a streaming DuckDB result is written with DuckDB type names and values', async (t) => {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const result = await conn.stream("SELECT i AS id, DATE '2022-01-01' + i::INTEGER AS day, (i * 1.25)::DECIMAL(12,2) AS amount, 'row ' || i AS label FROM range(5000) t(i)");
    const out = new Collect();
    const stats = await writeCsv(duckDbBatches(result), duckDbColumns(result), out);
    const rows = parseCsv(out.text());
    t.is(stats.rows, 5000);
    t.deepEqual(rows[0], ['id', 'day', 'amount', 'label']);
    t.deepEqual(rows[1], ['0', '2022-01-01', '0', 'row 0']);
    t.deepEqual(rows[5000], ['4999', '2035-09-09', '6248.75', 'row 4999']);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
});
