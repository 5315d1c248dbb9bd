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

type Page = { commit: string | null; items: { id: string }[]; next_cursor: string | null };

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
  t.deepEqual(op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort(), ['cursor', 'limit']);
});
