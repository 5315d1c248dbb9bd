import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FakeClock } from '../../../src/clock.ts';
import { ArchiveRefused, createUploadStore, defaultUploadLimits, queryUploads, type ArchiveRefusal } from '../../../src/data/uploads/index.ts';
import { makeZip, marker, patchCentral, patchLocal, zipWithName } from './zip-fixtures.ts';

const session = { orgId: 'acme', userId: 'u1', chatId: 'chat-1' };

/** A fresh data directory five levels above the session folder, and a store with small limits. */
function setup() {
  const root = mkdtempSync(join(tmpdir(), 'sextant-zip-'));
  const dataDir = join(root, 'data');
  const uploads = createUploadStore({
    dataDir,
    clock: new FakeClock(),
    limits: defaultUploadLimits({ chatBytes: 10 * 1024 * 1024, zip: { maxEntries: 20, maxUncompressedBytes: 4 * 1024 * 1024, maxRatio: 100, maxDepth: 1 } }),
  });
  const upload = async (zip: Buffer, name = 'data.zip') => {
    const tempPath = join(root, `incoming-${Math.random()}.zip`);
    writeFileSync(tempPath, zip);
    try {
      return await uploads.store(session, { tempPath, originalName: name, size: zip.length });
    } finally {
      rmSync(tempPath, { force: true });
    }
  };
  return { root, dataDir, uploads, upload, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file below `dir`, relative. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** True when a file named `name` exists in `start` or any folder above it. */
function foundAbove(start: string, name: string): boolean {
  for (let d = start; ; d = dirname(d)) {
    if (existsSync(join(d, name))) return true;
    if (dirname(d) === d) return false;
  }
}

const hostile: { title: string; reason: ArchiveRefusal; build: (name: string) => Promise<Buffer> }[] = [
  { title: 'a ../ path (zip slip)', reason: 'path_traversal', build: (n) => zipWithName(`../../../../../${n}`) },
  { title: 'a ../ path hidden in the middle', reason: 'path_traversal', build: (n) => zipWithName(`ok/../../../../../../${n}`) },
  { title: 'a backslash ..\\ path', reason: 'path_traversal', build: (n) => zipWithName(`..\\..\\..\\..\\..\\${n}`) },
  { title: 'an absolute path', reason: 'absolute_path', build: (n) => zipWithName(`${tmpdir()}/${n}`) },
  { title: 'a drive-letter path', reason: 'absolute_path', build: (n) => zipWithName(`C:/${n}`) },
  {
    title: 'a symbolic link entry',
    reason: 'link',
    build: (n) => makeZip([{ name: n, data: '/etc/passwd', mode: 0o120777 }]),
  },
  {
    title: 'a link followed by a file written through it',
    reason: 'link',
    build: (n) => makeZip([{ name: 'dir', data: '../../../../..', mode: 0o120777 }, { name: `dir/${n}` }]),
  },
  {
    title: 'a zip bomb by compression ratio',
    reason: 'compression_ratio',
    build: (n) => makeZip([{ name: n, data: Buffer.alloc(3 * 1024 * 1024, 0) }]),
  },
  {
    title: 'too many entries',
    reason: 'too_many_entries',
    build: () => makeZip(Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.csv` }))),
  },
  {
    title: 'too much uncompressed data',
    reason: 'too_much_data',
    build: () => makeZip([1, 2, 3].map((i) => ({ name: `big${i}.csv`, data: randomCsv(1.5 * 1024 * 1024), compress: false }))),
  },
  {
    title: 'an entry larger than its declared size',
    reason: 'too_much_data',
    build: async (n) => {
      // Declared 10 bytes (central directory and local header) while the data inflates to 100 KB.
      const zip = await makeZip([{ name: n, data: randomCsv(100 * 1024) }]);
      return patchLocal(
        patchCentral(zip, (b, at) => b.writeUInt32LE(10, at + 24)),
        (b, at) => b.writeUInt32LE(10, at + 22),
      );
    },
  },
  {
    title: 'an encrypted entry',
    reason: 'encrypted',
    build: async (n) => patchCentral(await makeZip([{ name: n }]), (b, at) => b.writeUInt16LE(b.readUInt16LE(at + 8) | 1, at + 8)),
  },
  {
    title: 'archives nested past the allowed depth',
    reason: 'nesting_too_deep',
    build: async (n) => {
      const inner = await makeZip([{ name: n }]);
      const middle = await makeZip([{ name: 'inner.zip', data: inner }]);
      return makeZip([{ name: 'middle.zip', data: middle }]);
    },
  },
  {
    title: 'a nested archive that is itself a bomb',
    reason: 'compression_ratio',
    build: async (n) => makeZip([{ name: 'inner.zip', data: await makeZip([{ name: n, data: Buffer.alloc(3 * 1024 * 1024, 0) }]) }]),
  },
  {
    title: 'two entries with the same name',
    reason: 'duplicate_entry',
    build: (n) => makeZip([{ name: n }, { name: n.toUpperCase() }]),
  },
  { title: 'a truncated archive', reason: 'invalid_archive', build: async (n) => (await makeZip([{ name: n }])).subarray(0, 40) },
];

function randomCsv(bytes: number): Buffer {
  const hex = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) hex[i] = 'abcdef0123456789,\n'.charCodeAt(Math.floor(Math.random() * 18));
  return hex;
}

for (const h of hostile) {
  test(`an archive with ${h.title} is refused and nothing is written`, async (t) => {
    const s = setup();
    try {
      const name = marker();
      const before = tree(s.root);
      const err = await t.throwsAsync(s.upload(await h.build(name)), { instanceOf: ArchiveRefused });
      t.is(err?.reason, h.reason);
      t.is(err?.code, 'ARCHIVE_REFUSED');
      t.deepEqual(tree(s.root), before);
      t.false(foundAbove(s.uploads.dir(session), name));
      t.deepEqual(await s.uploads.list(session), []);
    } finally {
      s.cleanup();
    }
  });
}

test('a well-formed archive is extracted with folders, nested archives one level deep, junk and unsupported files left out', async (t) => {
  const s = setup();
  try {
    const inner = await makeZip([{ name: 'q3.csv', data: 'region,amount\nnorth,5\n' }]);
    const zip = await makeZip([
      { name: 'sales/q1.csv', data: 'region,amount\nnorth,10\nsouth,20\n' },
      { name: 'sales/q2.json', data: '[{"region":"east","amount":7}]' },
      { name: 'notes.txt', data: 'hello' },
      { name: 'more.zip', data: inner },
      { name: 'tool.exe', data: 'MZ' },
      { name: '__MACOSX/sales/._q1.csv', data: 'junk' },
    ]);
    const record = await s.upload(zip, 'Quarterly Data.zip');
    t.is(record.stored_name, 'Quarterly Data');
    t.is(record.path_in_sandbox, 'uploads/Quarterly Data/');
    t.deepEqual(record.files?.map((f) => f.path_in_sandbox).sort(), [
      'uploads/Quarterly Data/more/q3.csv',
      'uploads/Quarterly Data/notes.txt',
      'uploads/Quarterly Data/sales/q1.csv',
      'uploads/Quarterly Data/sales/q2.json',
    ]);
    t.deepEqual(record.skipped?.sort(), ['__MACOSX/sales/._q1.csv', 'tool.exe']);
    t.is(record.size, record.files!.reduce((n, f) => n + f.size, 0));
    t.deepEqual(tree(s.uploads.dir(session)), ['.uploads.json', 'Quarterly Data/more/q3.csv', 'Quarterly Data/notes.txt', 'Quarterly Data/sales/q1.csv', 'Quarterly Data/sales/q2.json']);
    // The extracted data files are queryable.
    const q = await queryUploads(s.uploads.dir(session), 'SELECT (SELECT sum(amount) FROM q1) + (SELECT sum(amount) FROM q2) + (SELECT sum(amount) FROM q3) AS total');
    t.deepEqual(q.tables.map((x) => x.name).sort(), ['q1', 'q2', 'q3']);
    t.deepEqual(q.rows, [[42n]]);
  } finally {
    s.cleanup();
  }
});
