import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../../src/clock.ts';
import { ChatUploadLimitReached, createUploadStore, defaultUploadLimits, UnsupportedFileType, UploadTooLarge, uploadSessionDir } from '../../../src/data/uploads/index.ts';
import { ValidationFailed } from '../../../src/errors.ts';

function setup(limits = defaultUploadLimits({ fileBytes: 1000, chatBytes: 2500 })) {
  const root = mkdtempSync(join(tmpdir(), 'sextant-up-'));
  const clock = new FakeClock();
  const uploads = createUploadStore({ dataDir: join(root, 'data'), clock, limits });
  let n = 0;
  const file = (originalName: string, content: string | Buffer) => {
    const tempPath = join(root, `tmp-${++n}`);
    writeFileSync(tempPath, content);
    return { tempPath, originalName, size: Buffer.byteLength(content) };
  };
  return { root, clock, uploads, file, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const s1 = { orgId: 'acme', userId: 'u1', chatId: 'c1' };

test('a CSV is stored in the chat session folder and described as the interface says', async (t) => {
  const s = setup();
  try {
    s.clock.set(1_700_000_000_000);
    const record = await s.uploads.store(s1, s.file('sales.csv', 'a,b\n1,2\n'));
    t.like(record, { original_name: 'sales.csv', stored_name: 'sales.csv', size: 8, path_in_sandbox: 'uploads/sales.csv', kind: 'csv', created_at: 1_700_000_000_000 });
    t.regex(record.file_id, /^[A-Za-z0-9_-]{16}$/);
    const dir = s.uploads.dir(s1);
    t.is(dir, join(s.root, 'data', 'uploads', 'acme', 'u1__c1'));
    t.is(readFileSync(join(dir, 'sales.csv'), 'utf8'), 'a,b\n1,2\n');
    t.deepEqual(await s.uploads.list(s1), [record]);
  } finally {
    s.cleanup();
  }
});

test('a second file with the same name is kept beside the first', async (t) => {
  const s = setup();
  try {
    await s.uploads.store(s1, s.file('sales.csv', 'a\n1\n'));
    const second = await s.uploads.store(s1, s.file('SALES.csv', 'a\n2\n'));
    t.is(second.stored_name, 'SALES-2.csv');
  } finally {
    s.cleanup();
  }
});

test('hostile file names are reduced to a safe name inside the folder', async (t) => {
  const s = setup();
  try {
    const a = await s.uploads.store(s1, s.file('../../../etc/passwd.txt', 'x'));
    const b = await s.uploads.store(s1, s.file('..\\..\\evil.txt', 'x'));
    const c = await s.uploads.store(s1, s.file('.hidden.txt', 'x'));
    const d = await s.uploads.store(s1, s.file('a\u0000b<c>.txt', 'x'));
    t.deepEqual([a.stored_name, b.stored_name, c.stored_name, d.stored_name], ['passwd.txt', 'evil.txt', 'hidden.txt', 'a_b_c_.txt']);
    for (const r of [a, b, c, d]) t.true(existsSync(join(s.uploads.dir(s1), r.stored_name)));
  } finally {
    s.cleanup();
  }
});

test('files over the per-file limit and uploads past the per-chat limit are refused', async (t) => {
  const s = setup();
  try {
    await t.throwsAsync(s.uploads.store(s1, s.file('big.csv', 'x'.repeat(1001))), { instanceOf: UploadTooLarge });
    await s.uploads.store(s1, s.file('a.csv', 'x'.repeat(1000)));
    await s.uploads.store(s1, s.file('b.csv', 'x'.repeat(1000)));
    const err = await t.throwsAsync(s.uploads.store(s1, s.file('c.csv', 'x'.repeat(600))), { instanceOf: ChatUploadLimitReached });
    t.is(err?.code, 'CHAT_UPLOAD_LIMIT');
    t.false(existsSync(join(s.uploads.dir(s1), 'c.csv')));
    // Another chat has its own allowance.
    await t.notThrowsAsync(s.uploads.store({ ...s1, chatId: 'c2' }, s.file('c.csv', 'x'.repeat(600))));
  } finally {
    s.cleanup();
  }
});

test('parallel uploads cannot overshoot the per-chat limit together', async (t) => {
  const s = setup();
  try {
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => s.uploads.store(s1, s.file(`f${i}.csv`, 'x'.repeat(900)))));
    t.is(results.filter((r) => r.status === 'fulfilled').length, 2);
    t.true(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof ChatUploadLimitReached));
  } finally {
    s.cleanup();
  }
});

test('accepted kinds are stored and anything else, or content that contradicts its name, is refused', async (t) => {
  const s = setup(defaultUploadLimits({ fileBytes: 10_000, chatBytes: 100_000 }));
  try {
    const accepted: [string, string | Buffer][] = [
      ['d.tsv', 'a\tb\n'],
      ['d.json', '[]'],
      ['d.parquet', Buffer.from('PAR1....PAR1')],
      ['d.xlsx', Buffer.from('PK\u0003\u0004')],
      ['notes.md', '# hi'],
      ['p.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a])],
      ['p.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0])],
      ['doc.pdf', '%PDF-1.7\n'],
    ];
    for (const [name, content] of accepted) t.is((await s.uploads.store(s1, s.file(name, content))).stored_name, name);
    const refused: [string, string | Buffer][] = [
      ['tool.exe', 'MZ'],
      ['page.html', '<html>'],
      ['noextension', 'x'],
      ['fake.pdf', 'MZ\u0000\u0000'],
      ['fake.png', 'not a png'],
      ['fake.parquet', 'a,b'],
      ['binary.csv', Buffer.from([0x61, 0x00, 0x62])],
    ];
    for (const [name, content] of refused) {
      const err = await t.throwsAsync(s.uploads.store(s1, s.file(name, content)), { instanceOf: UnsupportedFileType }, name);
      t.is(err?.code, 'UNSUPPORTED_FILE_TYPE');
    }
  } finally {
    s.cleanup();
  }
});

test('each user has their own folder for a chat id, and unsafe ids are refused', (t) => {
  const a = uploadSessionDir('/srv/data', { orgId: 'acme', userId: 'u1', chatId: 'shared-id' });
  const b = uploadSessionDir('/srv/data', { orgId: 'acme', userId: 'u2', chatId: 'shared-id' });
  t.not(a, b);
  t.is(uploadSessionDir('/srv/data', { orgId: 'acme', userId: 'u1' }), '/srv/data/uploads/acme/u1__session');
  for (const chatId of ['../x', 'a/b', '', '.', 'x'.repeat(129)]) {
    const err = t.throws(() => uploadSessionDir('/srv/data', { orgId: 'acme', userId: 'u1', chatId }), { instanceOf: ValidationFailed });
    t.deepEqual(err?.issues[0]?.loc, ['body', 'chat_id']);
  }
  t.throws(() => uploadSessionDir('/srv/data', { orgId: '../other', userId: 'u1' }), { instanceOf: ValidationFailed });
});
