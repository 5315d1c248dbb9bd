import test from 'ava';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let admin: string;
let user: string;
let otherAdmin: string;

test.before(async () => {
  t0 = await startTestApp();
  const org = t0.org('acme');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  user = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: t0.org('globex'), role: 'admin' }));
  for (const title of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']) {
    const res = await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: { title, body: 'text' } });
    if (res.status !== 201) throw new Error(`seeding ${title}: ${res.status}`);
  }
  await call(t0, 'POST', '/api/knowledge/notes', { token: otherAdmin, body: { title: 'Globex only', body: 'text' } });
});
test.after.always(() => t0.stop());

type Page = { commit: string | null; items: { id: string }[]; next_cursor: string | null; total: number };

async function pages(token: string, limit: number): Promise<Page[]> {
  const out: Page[] = [];
  let cursor: string | null = null;
  do {
    const res = await call(t0, 'GET', `/api/knowledge/notes?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    if (res.status !== 200) throw new Error(`page: ${res.status}`);
    out.push(res.body as Page);
    cursor = (res.body as Page).next_cursor;
  } while (cursor);
  return out;
}

test.serial('the list without a limit is every item in path order, with no next page', async (t) => {
  const res = await call(t0, 'GET', '/api/knowledge/notes', { token: user });
  t.is(res.status, 200);
  t.deepEqual(res.body.items.map((i: { id: string }) => i.id), ['alpha', 'bravo', 'charlie', 'delta', 'echo']);
  t.is(res.body.next_cursor, null);
});

test.serial('pages of a limit walk every item once, in the same order as the whole list', async (t) => {
  const walked = await pages(user, 2);
  t.deepEqual(walked.map((p) => p.items.length), [2, 2, 1]);
  t.deepEqual(walked.flatMap((p) => p.items.map((i) => i.id)), ['alpha', 'bravo', 'charlie', 'delta', 'echo']);
  t.is(walked.at(-1)!.next_cursor, null);
  // A limit the list fits in exactly says there is no next page.
  t.is((await pages(user, 5)).length, 1);
});

test.serial('a page after a cursor is keyed on the path: items added before it do not shift the next page', async (t) => {
  const first = (await call(t0, 'GET', '/api/knowledge/notes?limit=2', { token: admin })).body as Page;
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: { title: 'Aardvark', body: 'text' } })).status, 201);
  const next = (await call(t0, 'GET', `/api/knowledge/notes?limit=2&cursor=${first.next_cursor}`, { token: admin })).body as Page;
  t.deepEqual(next.items.map((i) => i.id), ['charlie', 'delta']);
  t.not(next.commit, first.commit);
  t.is((await call(t0, 'DELETE', '/api/knowledge/notes/aardvark', { token: admin })).status, 200);
});

test.serial('a bad limit or cursor answers 422 with the field named', async (t) => {
  for (const [query, field] of [['limit=0', 'limit'], ['limit=1001', 'limit'], ['limit=two', 'limit'], ['cursor=not-a-cursor', 'cursor'], [`cursor=${'x'.repeat(4001)}`, 'cursor']] as const) {
    const res = await call(t0, 'GET', `/api/knowledge/notes?${query}`, { token: admin });
    t.is(res.status, 422, query);
    t.true(Array.isArray(res.body.detail), query);
    const [problem] = res.body.detail as { loc: unknown[]; msg: unknown; type: unknown }[];
    t.deepEqual(problem!.loc, ['query', field], query);
    t.is(typeof problem!.msg, 'string');
    t.is(typeof problem!.type, 'string');
  }
});

test.serial('the list needs a credential', async (t) => {
  t.is((await call(t0, 'GET', '/api/knowledge/notes?limit=2')).status, 401);
});

test.serial("an organization's pages hold only its own items, whatever cursor it is given", async (t) => {
  const acmeCursor = ((await call(t0, 'GET', '/api/knowledge/notes?limit=1', { token: admin })).body as Page).next_cursor!;
  const globex = await call(t0, 'GET', `/api/knowledge/notes?limit=10&cursor=${acmeCursor}`, { token: otherAdmin });
  t.is(globex.status, 200);
  t.deepEqual(globex.body.items.map((i: { id: string }) => i.id), ['globex-only']);
  t.deepEqual((await pages(otherAdmin, 1)).flatMap((p) => p.items.map((i) => i.id)), ['globex-only']);
});

test.serial('the list shows a change as soon as it is committed', async (t) => {
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: { title: 'Foxtrot', body: 'text' } })).status, 201);
  const after = await call(t0, 'GET', '/api/knowledge/notes?limit=1&cursor=' + Buffer.from(JSON.stringify({ p: 'notes/echo.yaml' })).toString('base64url'), { token: user });
  t.deepEqual(after.body.items.map((i: { id: string }) => i.id), ['foxtrot']);
  t.is((await call(t0, 'DELETE', '/api/knowledge/notes/foxtrot', { token: admin })).status, 200);
});

test.serial('the OpenAPI document describes the pages', async (t) => {
  const doc = (await call(t0, 'GET', '/openapi.json')).body;
  const op = doc.paths['/api/knowledge/{kind}'].get;
  t.deepEqual(op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort(), ['cursor', 'limit', 'q', 'row_filters']);
});

test.serial('every page counts the items of all pages together', async (t) => {
  const walked = await pages(user, 2);
  t.deepEqual(walked.map((p) => p.total), [5, 5, 5]);
  t.is(((await call(t0, 'GET', '/api/knowledge/notes', { token: user })).body as Page).total, 5);
});

test.serial('a search keeps the items whose id or title holds every word, ignoring case, and pages and counts them', async (t) => {
  const search = async (q: string, extra = '') => (await call(t0, 'GET', `/api/knowledge/notes?q=${encodeURIComponent(q)}${extra}`, { token: user })).body as Page;
  t.deepEqual((await search('HAR')).items.map((i) => i.id), ['charlie']);
  t.deepEqual((await search('a')).items.map((i) => i.id), ['alpha', 'bravo', 'charlie', 'delta']);
  t.deepEqual((await search('a  l')).items.map((i) => i.id), ['alpha', 'charlie', 'delta']);
  t.deepEqual((await search('zulu')).items, []);
  t.is((await search('zulu')).total, 0);
  t.deepEqual((await search('   ')).items.map((i) => i.id), ['alpha', 'bravo', 'charlie', 'delta', 'echo']);
  const first = await search('a', '&limit=3');
  t.deepEqual([first.items.map((i) => i.id), first.total], [['alpha', 'bravo', 'charlie'], 4]);
  const second = await search('a', `&limit=3&cursor=${first.next_cursor}`);
  t.deepEqual([second.items.map((i) => i.id), second.total, second.next_cursor], [['delta'], 4, null]);
  const res = await call(t0, 'GET', `/api/knowledge/notes?q=${'x'.repeat(201)}`, { token: user });
  t.is(res.status, 422);
  t.deepEqual(res.body.detail[0].loc, ['query', 'q']);
});

test.serial('row_filters=true keeps only the tables whose documentation has row filters', async (t) => {
  const table = (name: string, row_filters?: unknown[]) => ({ connection: 'wh', schema: 'main', name, columns: [{ name: 'country', type: 'VARCHAR' }], ...(row_filters ? { row_filters } : {}) });
  for (const body of [table('plain'), table('emptied', []), table('guarded', [{ filter: 'country = {{user.country}}' }])]) {
    t.is((await call(t0, 'POST', '/api/knowledge/tables', { token: admin, body })).status, 201);
  }
  const list = async (query: string) => ((await call(t0, 'GET', `/api/knowledge/tables?${query}`, { token: admin })).body as Page).items.map((i) => i.id);
  t.deepEqual(await list('row_filters=true'), ['wh/main.guarded']);
  t.deepEqual(await list('row_filters=false'), ['wh/main.emptied', 'wh/main.guarded', 'wh/main.plain']);
  t.deepEqual(await list('row_filters=true&q=plain'), []);
  t.is((await call(t0, 'GET', '/api/knowledge/tables?row_filters=yes', { token: admin })).status, 422);
});
