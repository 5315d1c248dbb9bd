import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeZip, zipWithName } from '../data/uploads/zip-fixtures.ts';
import { appendMessage } from '../../src/chats/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { principalOf } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_UPLOAD_LIMIT: '4096', SEXTANT_UPLOAD_CHAT_LIMIT: '8192' });
});
test.after.always(() => t0.stop());

function form(files: [string, string | Buffer][], fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const [name, content] of files) fd.append('file', new Blob([content]), name);
  return fd;
}

const upload = (token: string | undefined, body: FormData) =>
  t0.fetch('/api/upload_to_chat', { method: 'POST', body, headers: token ? { authorization: `Bearer ${token}` } : {} });

test('an uploaded CSV is stored in the caller’s chat folder and described', async (t) => {
  const user = t0.user({ orgId: t0.org('up-a') });
  const res = await upload(t0.session(user), form([['sales.csv', 'a,b\n1,2\n']], { chat_id: 'chat-1' }));
  t.is(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  t.like(body, { original_name: 'sales.csv', stored_name: 'sales.csv', size: 8, path_in_sandbox: 'uploads/sales.csv' });
  t.is(typeof body['file_id'], 'string');
  const onDisk = join(t0.config.dataDir, 'uploads', 'up-a', `${user.id}__chat-1`, 'sales.csv');
  t.is(readFileSync(onDisk, 'utf8'), 'a,b\n1,2\n');
});

test('an API token works too, and without a chat id the file goes to the user’s session folder', async (t) => {
  const user = t0.user({ orgId: t0.org('up-b') });
  const res = await upload(t0.token(user), form([['notes.txt', 'hello']]));
  t.is(res.status, 200);
  t.true(existsSync(join(t0.config.dataDir, 'uploads', 'up-b', `${user.id}__session`, 'notes.txt')));
});

test('an upload without credentials answers 401', async (t) => {
  const res = await upload(undefined, form([['a.csv', 'a\n']]));
  t.is(res.status, 401);
});

test('a missing file, two files or a bad chat id answer 422 naming the field', async (t) => {
  const token = t0.session(t0.user());
  const cases: [FormData, string][] = [
    [form([], { chat_id: 'c' }), 'file'],
    [form([['a.csv', 'a\n'], ['b.csv', 'b\n']]), 'file'],
    [form([['a.csv', 'a\n']], { chat_id: '../../etc' }), 'chat_id'],
  ];
  for (const [body, field] of cases) {
    const res = await upload(token, body);
    t.is(res.status, 422);
    const detail = ((await res.json()) as { detail: { loc: string[] }[] }).detail;
    t.deepEqual(detail[0]?.loc, ['body', field]);
  }
});

test('an unsupported file type answers 422 with its code', async (t) => {
  const res = await upload(t0.session(t0.user()), form([['tool.exe', 'MZ']]));
  t.is(res.status, 422);
  t.is(((await res.json()) as { code: string }).code, 'UNSUPPORTED_FILE_TYPE');
});

test('a file over the size limit answers 413, and so does a chat over its total', async (t) => {
  const token = t0.session(t0.user());
  const big = await upload(token, form([['big.csv', 'x'.repeat(5000)]], { chat_id: 'quota' }));
  t.is(big.status, 413);
  for (const i of [1, 2]) t.is((await upload(token, form([[`f${i}.csv`, 'x'.repeat(4000)]], { chat_id: 'quota' }))).status, 200);
  const over = await upload(token, form([['f3.csv', 'x'.repeat(1000)]], { chat_id: 'quota' }));
  t.is(over.status, 413);
  t.is(((await over.json()) as { code: string }).code, 'CHAT_UPLOAD_LIMIT');
});

test('a ZIP is extracted and a hostile one is refused with its reason', async (t) => {
  const user = t0.user({ orgId: t0.org('up-z') });
  const token = t0.session(user);
  const ok = await upload(token, form([['pack.zip', await makeZip([{ name: 'inner/data.csv', data: 'a\n1\n' }])]], { chat_id: 'z' }));
  t.is(ok.status, 200);
  t.like(await ok.json(), { stored_name: 'pack', path_in_sandbox: 'uploads/pack/', files: [{ path_in_sandbox: 'uploads/pack/inner/data.csv', size: 4, kind: 'csv' }] });
  const bad = await upload(token, form([['evil.zip', await zipWithName('../../../../escaped-route.csv')]], { chat_id: 'z' }));
  t.is(bad.status, 422);
  t.like(await bad.json(), { code: 'ARCHIVE_REFUSED', data: { reason: 'path_traversal' } });
  t.false(existsSync(join(t0.config.dataDir, 'escaped-route.csv')));
  t.false(existsSync(join(t0.config.dataDir, 'uploads', 'escaped-route.csv')));
});

test('two users naming the same chat id, in the same or another organization, never share a folder', async (t) => {
  const a = t0.user({ orgId: t0.org('up-x') });
  const b = t0.user({ orgId: t0.org('up-x') });
  const c = t0.user({ orgId: t0.org('up-y') });
  for (const [u, content] of [[a, 'from a'], [b, 'from b'], [c, 'from c']] as const) {
    t.is((await upload(t0.session(u), form([['same.txt', content]], { chat_id: 'shared-id' }))).status, 200);
  }
  const read = (org: string, userId: string) => readFileSync(join(t0.config.dataDir, 'uploads', org, `${userId}__shared-id`, 'same.txt'), 'utf8');
  t.is(read('up-x', a.id), 'from a');
  t.is(read('up-x', b.id), 'from b');
  t.is(read('up-y', c.id), 'from c');
  const listed = await t0.app.services.uploads.list({ orgId: 'up-x', userId: a.id, chatId: 'shared-id' });
  t.deepEqual(listed.map((r) => r.stored_name), ['same.txt']);
});

test('uploading into another member’s chat answers 404 and stores nothing; the owner and new chat ids are fine', async (t) => {
  const orgId = t0.org('up-owner');
  const owner = t0.user({ orgId });
  const other = t0.user({ orgId });
  await appendMessage(t0.app.services.chats, principalOf(t0, owner, orgId), { chatId: 'owned-chat', role: 'user', content: 'hi' });
  let res = await upload(t0.session(other), form([['a.csv', 'a\n1\n']], { chat_id: 'owned-chat' }));
  t.is(res.status, 404);
  t.false(existsSync(join(t0.config.dataDir, 'uploads', orgId, `${other.id}__owned-chat`)));
  res = await upload(t0.session(owner), form([['a.csv', 'a\n1\n']], { chat_id: 'owned-chat' }));
  t.is(res.status, 200);
  res = await upload(t0.session(other), form([['a.csv', 'a\n1\n']], { chat_id: 'brand-new-chat' }));
  t.is(res.status, 200);
  // The same chat id in another organization is someone else's business.
  const elsewhere = t0.user({ orgId: t0.org('up-elsewhere') });
  res = await upload(t0.session(elsewhere), form([['a.csv', 'a\n1\n']], { chat_id: 'owned-chat' }));
  t.is(res.status, 200);
});
