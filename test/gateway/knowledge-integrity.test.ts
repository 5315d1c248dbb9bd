// What the knowledge API refuses or protects: names no file can have, bodies too deep or too large,
// saves over a version the caller did not read, concurrent edits, merges without a merger, and
// credentials in mirror URLs.
import test from 'ava';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let admin: string;
let mergerEmail: string;
let merger: string;

test.before(async () => {
  t0 = await startTestApp();
  const org = t0.org('acme');
  admin = t0.session(t0.user({ orgId: org, role: 'admin', permissions: ['merge_to_production'] }));
  const m = t0.user({ orgId: org, role: 'modeler', permissions: ['merge_to_production'] });
  merger = t0.session(m);
  mergerEmail = m.email;
});
test.after.always(() => t0.stop());

const table = (over: Record<string, unknown>) => ({ connection: 'wh', schema: 'main', name: 'orders', description: 'd', ...over });
const head = async (token: string) => (await call(t0, 'GET', '/api/knowledge/model/history?limit=1', { token })).body.commits[0]?.commit as string | undefined;

const HOSTILE: [string, string, Record<string, unknown>, (string | number)[]][] = [
  ['a NUL in a table name', 'tables', table({ name: 'ord\u0000ers' }), ['body', 'name']],
  ['a newline in a schema name', 'tables', table({ schema: 'ma\nin' }), ['body', 'schema']],
  ['an escape sequence in a table name', 'tables', table({ name: '\u001b[2Jorders' }), ['body', 'name']],
  ['a Windows device name as schema', 'tables', table({ schema: 'nul' }), ['body', 'schema']],
  ['a name ending in a dot', 'tables', table({ name: 'orders.' }), ['body', 'name']],
  ['a table id over what the routes accept', 'tables', table({ schema: 's'.repeat(150), name: 'n'.repeat(150) }), ['body', 'name']],
  ['a skill name with a space', 'skills', { name: 'bad name', description: '', instructions: 'x' }, ['body', 'name']],
  ['an evaluation id of ..', 'evaluations', { id: '..', name: 'E', questions: [] }, ['body', 'id']],
];
// "Nothing is written" compares production's head before and after: serial, so that they run before
// the concurrent tests of this file, whose writes would otherwise land in between.
for (const [what, kind, body, loc] of HOSTILE) {
  test.serial(`${what} answers 422 naming the body field, and nothing is written`, async (t) => {
    const before = await head(admin);
    const res = await call(t0, 'POST', `/api/knowledge/${kind}`, { token: admin, body });
    t.is(res.status, 422);
    t.deepEqual(res.body.detail[0].loc, loc);
    t.is(await head(admin), before);
    t.is((await call(t0, 'GET', `/api/knowledge/${kind}`, { token: admin })).status, 200);
  });
}

test('ids in the query and the path that cannot be files answer 422 naming the query or the path', async (t) => {
  for (const id of ['con', 'a\u0000b', '.git']) {
    const res = await call(t0, 'POST', `/api/knowledge/notes?id=${encodeURIComponent(id)}`, { token: admin, body: { title: 'x', body: 'y' } });
    t.is(res.status, 422, id);
    t.deepEqual(res.body.detail[0].loc, ['query', 'id']);
  }
  // The message says what an id may be, not only that this one is not one.
  const dashed = await call(t0, 'POST', '/api/knowledge/notes?id=-rf', { token: admin, body: { title: 'x', body: 'y' } });
  t.is(dashed.body.detail[0].msg, 'invalid notes id: use letters, digits, _, - or . (not first), at most 128 characters');
  const path = await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('wh/ma\u0000in.orders')}`, { token: admin });
  t.is(path.status, 422);
  t.deepEqual(path.body.detail[0].loc, ['path', 'id']);
  const flat = await call(t0, 'GET', '/api/knowledge/tables/orders', { token: admin });
  t.is(flat.body.detail[0].msg, 'invalid tables id: write it as <connection>/<schema>.<table>, such as demo_warehouse/main.orders');
});

test('a table id in decomposed Unicode names the same file as its composed form', async (t) => {
  const created = await call(t0, 'POST', '/api/knowledge/tables', { token: admin, body: table({ name: 'cafe\u0301s' }) });
  t.is(created.status, 201);
  t.is(created.body.path, 'tables/wh/main.caf\u00e9s.yaml');
  for (const id of ['wh/main.caf\u00e9s', 'wh/main.cafe\u0301s']) {
    const got = await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent(id)}`, { token: admin });
    t.is(got.status, 200);
    t.is(got.body.data.name, 'caf\u00e9s');
  }
});

test.serial('a 20,000-deep body answers 422 and one with too many values 413, never 500', async (t) => {
  // Written as text: JSON.stringify itself cannot nest that deep.
  const deep = `{"title":"Deep","body":"x","extra":${'['.repeat(20_000)}"leaf"${']'.repeat(20_000)}}`;
  const before = await head(admin);
  const res = await t0.fetch('/api/knowledge/notes', { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: deep });
  t.is(res.status, 422);
  const detail = ((await res.json()) as { detail: { loc: (string | number)[] }[] }).detail;
  t.deepEqual(detail[0]!.loc.slice(0, 3), ['body', 'extra', 0]);
  const wide = await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: { title: 'Wide', body: 'x', extra: new Array(120_000).fill(0) } });
  t.is(wide.status, 413);
  t.is(wide.body.code, 'KNOWLEDGE_ITEM_TOO_LARGE');
  t.is(await head(admin), before);
});

test('every item read carries its version as ETag, and If-Match with another version answers 412 naming the current one', async (t) => {
  const created = await call(t0, 'POST', '/api/knowledge/notes?id=versioned', { token: admin, body: { title: 'V', body: 'one' } });
  t.regex(created.body.version, /^[0-9a-f]{40}$/);
  const got = await t0.fetch('/api/knowledge/notes/versioned', { headers: { authorization: `Bearer ${admin}` } });
  const v1 = ((await got.json()) as { version: string }).version;
  t.is(got.headers.get('etag'), `"${v1}"`);
  t.is(v1, created.body.version);
  const listed = await call(t0, 'GET', '/api/knowledge/notes', { token: admin });
  t.is(listed.body.items.find((i: { id: string }) => i.id === 'versioned').version, v1);

  const put = (ifMatch: string, body: string) =>
    t0.fetch('/api/knowledge/notes/versioned', { method: 'PUT', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'if-match': ifMatch }, body: JSON.stringify({ title: 'V', body }) });
  const ok = await put(`"${v1}"`, 'two');
  t.is(ok.status, 200);
  const v2 = ((await ok.json()) as { version: string }).version;
  t.is(ok.headers.get('etag'), `"${v2}"`);
  const stale = await put(`W/"${v1}"`, 'three');
  t.is(stale.status, 412);
  const body = (await stale.json()) as { code: string; data: { current_version: string } };
  t.is(body.code, 'KNOWLEDGE_VERSION_MISMATCH');
  t.is(body.data.current_version, v2);
  const del = await t0.fetch('/api/knowledge/notes/versioned', { method: 'DELETE', headers: { authorization: `Bearer ${admin}`, 'if-match': `"${v1}"` } });
  t.is(del.status, 412);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/versioned', { token: admin })).body.data.body, 'two');
  t.is((await t0.fetch('/api/knowledge/notes/versioned', { method: 'DELETE', headers: { authorization: `Bearer ${admin}`, 'if-match': '*' } })).status, 200);
  t.is((await put('*', 'gone')).status, 412);
});

/** Holds an organization's write lock until both saves have arrived and queued behind it. */
async function saveTogether(orgId: string, token: string, a: unknown, b: unknown, path: string) {
  const repo = await t0.app.services.knowledge.repos.repo(orgId);
  const inner = repo.lock;
  let release!: () => void;
  let arrived!: () => void;
  const queued = new Promise<void>((r) => (arrived = r));
  let count = 0;
  repo.lock = { run: (fn) => (++count === 3 && arrived(), inner.run(fn)) };
  void repo.lock.run(() => new Promise<void>((r) => (release = r)));
  const saves = [a, b].map((body) => call(t0, 'PUT', path, { token, body }));
  await queued;
  release();
  const results = await Promise.all(saves);
  repo.lock = inner;
  return results;
}

test('two saves without If-Match changing different fields at once are merged field by field; the same field gives the later one 409', async (t) => {
  const org = t0.org('pair');
  const token = t0.session(t0.user({ orgId: org, role: 'admin', permissions: ['merge_to_production'] }));
  const base = { title: 'Shared', body: 'base', tags: ['x'] };
  t.is((await call(t0, 'POST', '/api/knowledge/notes?id=shared', { token, body: base })).status, 201);
  const [a, b] = await saveTogether(org, token, { ...base, body: 'edited body' }, { ...base, tags: ['x', 'y'] }, '/api/knowledge/notes/shared');
  t.is(a!.status, 200);
  t.is(b!.status, 200);
  const now = await call(t0, 'GET', '/api/knowledge/notes/shared', { token });
  t.deepEqual(now.body.data, { title: 'Shared', body: 'edited body', tags: ['x', 'y'] });

  const current = now.body.data;
  const both = await saveTogether(org, token, { ...current, body: 'mine' }, { ...current, body: 'theirs' }, '/api/knowledge/notes/shared');
  // Whichever reached the lock first is saved; the other is told, with the field.
  const won = both.findIndex((r) => r.status === 200);
  const lost = both[1 - won]!;
  t.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
  t.is(lost.body.code, 'KNOWLEDGE_EDIT_CONFLICT');
  t.deepEqual(lost.body.data.fields, ['body']);
  t.is(lost.body.data.current_version, both[won]!.body.version);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/shared', { token })).body.data.body, ['mine', 'theirs'][won]);
});

test('a merge into production is a merge commit by the merger, also when production had not moved', async (t) => {
  const env = await call(t0, 'POST', '/api/environments', { token: merger, body: { name: 'Merge me', color: '#00ff00' } });
  await call(t0, 'POST', '/api/knowledge/notes?id=from-env', { token: merger, env: env.body.id, body: { title: 'From env', body: 'x' } });
  const predicted = await call(t0, 'GET', `/api/environments/${env.body.id}/conflicts`, { token: merger });
  const merged = await call(t0, 'POST', `/api/environments/${env.body.id}/merge`, { token: merger, body: { confirm: true } });
  t.is(merged.status, 200);
  t.is(merged.body.merge, 'merged');
  t.is(predicted.body.merge, 'merged');
  const history = await call(t0, 'GET', '/api/knowledge/model/history?limit=500', { token: admin });
  const commit = history.body.commits.find((c: { commit: string }) => c.commit === merged.body.commit);
  t.is(commit.author.email, mergerEmail);
  t.is(commit.parents.length, 2);
});

test('a mirror URL holding credentials is refused, and a new host does not get the stored token', async (t) => {
  for (const url of ['https://bot:secret@example.com/k.git', 'https://secret@example.com/k.git']) {
    const res = await call(t0, 'PUT', '/api/knowledge/mirror', { token: admin, body: { url } });
    t.is(res.status, 422);
    t.deepEqual(res.body.detail[0].loc, ['body', 'url']);
    t.false(JSON.stringify(res.body).includes('secret'));
  }
  const first = await call(t0, 'PUT', '/api/knowledge/mirror', { token: admin, body: { url: 'http://127.0.0.1:9/a/k.git', username: 'bot', token: 'first-token' } });
  t.is(first.status, 200);
  t.true(first.body.has_token);
  const moved = await call(t0, 'PUT', '/api/knowledge/mirror', { token: admin, body: { url: 'http://127.0.0.2:9/a/k.git', username: 'bot' } });
  t.is(moved.status, 422);
  t.deepEqual(moved.body.detail[0].loc, ['body', 'token']);
  t.is((await call(t0, 'GET', '/api/knowledge/mirror', { token: admin })).body.url, 'http://127.0.0.1:9/a/k.git');
  const samehost = await call(t0, 'PUT', '/api/knowledge/mirror', { token: admin, body: { url: 'http://127.0.0.1:9/b/k.git', username: 'bot' } });
  t.is(samehost.status, 200);
  t.true(samehost.body.has_token);
  const cleared = await call(t0, 'PUT', '/api/knowledge/mirror', { token: admin, body: { url: 'http://127.0.0.2:9/a/k.git', token: '' } });
  t.is(cleared.status, 200);
  t.false(cleared.body.has_token);
  t.is((await call(t0, 'DELETE', '/api/knowledge/mirror', { token: admin })).status, 204);
});
