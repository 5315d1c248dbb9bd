import test from 'ava';
import ExcelJS from 'exceljs';
import { PassThrough, Writable } from 'node:stream';
import { ExportTooWide, writeXlsx, type ColumnInfo, type RowBatch } from '../../../src/data/export/index.ts';

class Collect extends Writable {
  chunks: Buffer[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.chunks.push(chunk);
    cb();
  }
}

async function readBack(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  return wb;
}

function sheetValues(ws: ExcelJS.Worksheet): unknown[][] {
  const out: unknown[][] = [];
  ws.eachRow({ includeEmpty: true }, (row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}

async function* numbered(columns: ColumnInfo[], count: number, batch = 7): AsyncIterable<RowBatch> {
  for (let i = 0; i < count; i += batch) {
    yield { columns, rows: Array.from({ length: Math.min(batch, count - i) }, (_, k) => [i + k, `row ${i + k}`]) };
  }
}

const idText: ColumnInfo[] = [
  { name: 'id', type: 'INTEGER' },
  { name: 'text', type: 'VARCHAR' },
];

test('rows past the sheet limit continue on new sheets, each with the header', async (t) => {
  const out = new Collect();
  const stats = await writeXlsx(numbered(idText, 25), idText, out, { rowsPerSheet: 10 });
  t.deepEqual(stats, { rows: 25, sheets: 3 });
  const wb = await readBack(Buffer.concat(out.chunks));
  t.deepEqual(wb.worksheets.map((w) => w.name), ['Sheet1', 'Sheet2', 'Sheet3']);
  const [a, b, c] = wb.worksheets.map(sheetValues);
  t.is(a!.length, 11);
  t.is(b!.length, 11);
  t.is(c!.length, 6);
  for (const s of [a!, b!, c!]) t.deepEqual(s[0], ['id', 'text']);
  t.deepEqual(a![1], [0, 'row 0']);
  t.deepEqual(b![1], [10, 'row 10']);
  t.deepEqual(c![5], [24, 'row 24']);
});

test('a result that fills a sheet exactly does not start an empty one', async (t) => {
  const out = new Collect();
  t.deepEqual(await writeXlsx(numbered(idText, 20), idText, out, { rowsPerSheet: 10 }), { rows: 20, sheets: 2 });
});

test('numbers, booleans and dates stay typed; other values become text a workbook can hold', async (t) => {
  const columns: ColumnInfo[] = [
    { name: 'n', type: 'DOUBLE' },
    { name: 'big', type: 'BIGINT' },
    { name: 'huge', type: 'HUGEINT' },
    { name: 'flag', type: 'BOOLEAN' },
    { name: 'day', type: 'DATE' },
    { name: 'missing', type: 'VARCHAR' },
    { name: 'control', type: 'VARCHAR' },
    { name: 'long', type: 'VARCHAR' },
    { name: 'obj', type: 'JSON' },
    { name: 'formula', type: 'VARCHAR' },
  ];
  const day = new Date('2024-02-29T00:00:00Z');
  const row = [2.5, 42n, 2n ** 70n, true, day, null, 'bell\u0007tab\tnul\u0000', 'z'.repeat(40_000), { a: [1] }, '=HYPERLINK("http://x")'];
  const out = new Collect();
  await writeXlsx((async function* () {
    yield { columns, rows: [row] };
  })(), columns, out);
  const [, values] = sheetValues((await readBack(Buffer.concat(out.chunks))).worksheets[0]!);
  t.is(values![0], 2.5);
  t.is(values![1], 42);
  t.is(values![2], (2n ** 70n).toString());
  t.is(values![3], true);
  t.deepEqual(values![4], day);
  t.is(values![5], undefined);
  t.is(values![6], 'belltab\tnul');
  t.is((values![7] as string).length, 32_767);
  t.is(values![8], '{"a":[1]}');
  // Written as a string cell, never as a formula.
  t.is(values![9], '=HYPERLINK("http://x")');
});

test('an empty result gives one sheet with the header', async (t) => {
  const out = new Collect();
  t.deepEqual(await writeXlsx(numbered(idText, 0), idText, out), { rows: 0, sheets: 1 });
  const wb = await readBack(Buffer.concat(out.chunks));
  t.deepEqual(sheetValues(wb.worksheets[0]!), [['id', 'text']]);
});

test('more columns than a sheet holds are refused before anything is written', async (t) => {
  const wide = Array.from({ length: 16_385 }, (_, i) => ({ name: `c${i}`, type: 'INTEGER' }));
  const out = new Collect();
  const err = await t.throwsAsync(writeXlsx(numbered(wide, 0), wide, out), { instanceOf: ExportTooWide });
  t.is(err?.code, 'EXPORT_TOO_WIDE');
  t.is(out.chunks.length, 0);
});

test.serial('a large export through a slow reader keeps memory flat', async (t) => {
  const columns = idText;
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  let bytes = 0;
  let maxGrowth = 0;
  const mem = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const base = mem();
  out.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    out.pause();
    setTimeout(() => out.resume(), 0);
  });
  async function* source(): AsyncIterable<RowBatch> {
    for (let b = 0; b < 100; b++) {
      maxGrowth = Math.max(maxGrowth, mem() - base);
      yield { columns, rows: Array.from({ length: 2000 }, (_, i) => [b * 2000 + i, 'x'.repeat(400) + i]) };
    }
  }
  const stats = await writeXlsx(source(), columns, out, { rowsPerSheet: 150_000 });
  t.deepEqual(stats, { rows: 200_000, sheets: 2 });
  t.true(bytes > 1_000_000);
  // ~85 MB of sheet XML goes through; without backpressure most of it piles up in exceljs' zip input (~150 MB measured).
  t.true(maxGrowth < 100 * 1024 * 1024, `memory grew ${Math.round(maxGrowth / 1e6)} MB`);
});

test('markup characters in names and text, and timestamps, come back as written', async (t) => {
  const columns: ColumnInfo[] = [
    { name: 'a<b & "c"', type: 'VARCHAR' },
    { name: 'at', type: 'TIMESTAMP' },
  ];
  const at = new Date('2024-02-29T10:11:12.500Z');
  const out = new Collect();
  await writeXlsx((async function* () {
    yield { columns, rows: [[' x<y & "z"> ', at]] };
  })(), columns, out);
  const [header, values] = sheetValues((await readBack(Buffer.concat(out.chunks))).worksheets[0]!);
  t.deepEqual(header, ['a<b & "c"', 'at']);
  t.is(values![0], ' x<y & "z"> ');
  t.deepEqual(values![1], at);
});

test('characters XML cannot carry are dropped, so the workbook still opens; emoji and other text stay', async (t) => {
  const columns: ColumnInfo[] = [{ name: 'note\u0001', type: 'VARCHAR' }];
  const out = new Collect();
  await writeXlsx((async function* () {
    yield { columns, rows: [['bell\u0007 tab\t form\u000c end\uffff lone\ud800 pair 😀 é']] };
  })(), columns, out);
  const [header, values] = sheetValues((await readBack(Buffer.concat(out.chunks))).worksheets[0]!);
  t.deepEqual(header, ['note']);
  t.is(values![0], 'bell tab\t form end lone pair 😀 é');
});

test('a destination that closes mid-export stops the export with EXPORT_ABORTED', async (t) => {
  const out = new PassThrough({ highWaterMark: 1024 });
  async function* source(): AsyncIterable<RowBatch> {
    for (let b = 0; b < 1000; b++) {
      if (b === 5) out.destroy();
      yield { columns: idText, rows: Array.from({ length: 500 }, (_, i) => [i, 'x'.repeat(200)]) };
    }
  }
  const err = await t.throwsAsync(writeXlsx(source(), idText, out));
  t.is((err as { code?: string } | undefined)?.code, 'EXPORT_ABORTED');
});
