import test from 'ava';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let admin: string;
let modeler: string;
let merger: string;
let mergerEmail: string;
let user: string;
let otherAdmin: string;

test.before(async () => {
  t0 = await startTestApp();
  const org = t0.org('acme');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  const m = t0.user({ orgId: org, role: 'modeler', permissions: ['merge_to_production'] });
  merger = t0.session(m);
  mergerEmail = m.email;
  user = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: t0.org('globex'), role: 'admin' }));
});
test.after.always(() => t0.stop());

const note = (title: string, body = 'text') => ({ title, body, tags: ['t'] });

test('an admin creates, reads, updates and deletes a note on production', async (t) => {
  const created = await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: note('Fiscal year rules') });
  t.is(created.status, 201);
  t.is(created.body.id, 'fiscal-year-rules');
  t.is(created.body.path, 'notes/fiscal-year-rules.yaml');
  t.regex(created.body.commit, /^[0-9a-f]{40}$/);
  const got = await call(t0, 'GET', '/api/knowledge/notes/fiscal-year-rules', { token: user });
  t.is(got.status, 200);
  t.is(got.body.data.title, 'Fiscal year rules');
  const updated = await call(t0, 'PUT', '/api/knowledge/notes/fiscal-year-rules', { token: admin, body: note('Fiscal year rules', 'Starts in April') });
  t.is(updated.status, 200);
  t.is(updated.body.data.body, 'Starts in April');
  const list = await call(t0, 'GET', '/api/knowledge/notes', { token: user });
  t.true(list.body.items.some((i: { id: string }) => i.id === 'fiscal-year-rules'));
  t.is((await call(t0, 'DELETE', '/api/knowledge/notes/fiscal-year-rules', { token: admin })).status, 200);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/fiscal-year-rules', { token: admin })).status, 404);
});

test('a title that is taken gets a numbered id, an explicit id that is taken answers 409', async (t) => {
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: note('Same') })).body.id, 'same');
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: note('Same') })).body.id, 'same-2');
  const dup = await call(t0, 'POST', '/api/knowledge/skills', { token: admin, body: { name: 'dup', description: '', instructions: 'x' } });
  t.is(dup.status, 201);
  const again = await call(t0, 'POST', '/api/knowledge/skills', { token: admin, body: { name: 'dup', description: '', instructions: 'x' } });
  t.is(again.status, 409);
  t.is(again.body.code, 'KNOWLEDGE_ITEM_EXISTS');
});

test('every commit is authored by the acting user', async (t) => {
  await call(t0, 'POST', '/api/knowledge/notes', { token: merger, body: note('Authored') });
  const h = await call(t0, 'GET', '/api/knowledge/notes/authored/history', { token: admin });
  t.is(h.status, 200);
  t.is(h.body.commits.length, 1);
  t.is(h.body.commits[0].author.email, mergerEmail);
  const all = await call(t0, 'GET', '/api/knowledge/model/history?limit=500', { token: admin });
  t.true(all.body.commits.some((c: { author: { email: string } }) => c.author.email === mergerEmail));
});

test('a table is addressed by connection/schema.table with the slash URL-encoded', async (t) => {
  const table = { connection: 'wh', schema: 'main', name: 'orders', description: 'Orders', columns: [{ name: 'id', type: 'INTEGER' }] };
  const created = await call(t0, 'POST', '/api/knowledge/tables', { token: admin, body: table });
  t.is(created.status, 201);
  t.is(created.body.path, 'tables/wh/main.orders.yaml');
  const got = await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('wh/main.orders')}`, { token: admin });
  t.is(got.status, 200);
  t.is(got.body.data.name, 'orders');
});

test('a write failing its schema answers 422 naming the file and the field', async (t) => {
  const res = await call(t0, 'POST', '/api/knowledge/evaluations', { token: admin, body: { id: 'ev1', name: 'E', questions: [{ id: 'q1', question: 'q' }] } });
  t.is(res.status, 422);
  t.deepEqual(res.body.detail[0].loc, ['body', 'questions', 0, 'expected_answer']);
  t.is(res.body.detail[0].file, 'evaluations/ev1.yaml');
  const put = await call(t0, 'PUT', '/api/knowledge/skills/dup', { token: admin, body: { name: 'other', description: '', instructions: 'x' } });
  t.is(put.status, 422);
  t.deepEqual(put.body.detail[0].loc, ['body', 'name']);
  const badKind = await call(t0, 'GET', '/api/knowledge/widgets', { token: admin });
  t.is(badKind.status, 422);
  t.deepEqual(badKind.body.detail[0].loc, ['path', 'kind']);
  const notObject = await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: ['x'] });
  t.is(notObject.status, 422);
});

test('an item whose id comes from its content names the missing body fields in its 422, never the query id', async (t) => {
  const table = { connection: 'wh', schema: 'main', name: 'orders', description: 'Orders', columns: [{ name: 'id', type: 'INTEGER' }] };
  for (const field of ['connection', 'schema', 'name'] as const) {
    const { [field]: _left, ...body } = table;
    const res = await call(t0, 'POST', '/api/knowledge/tables', { token: admin, body });
    t.is(res.status, 422, field);
    t.deepEqual(res.body.detail, [{ loc: ['body', field], msg: 'Field required', type: 'missing' }], field);
  }
  const none = await call(t0, 'POST', '/api/knowledge/tables?id=x', { token: admin, body: { description: 'd' } });
  t.is(none.status, 422);
  t.deepEqual(none.body.detail.map((d: { loc: unknown[] }) => d.loc), [['body', 'connection'], ['body', 'schema'], ['body', 'name']]);
  const wrongType = await call(t0, 'POST', '/api/knowledge/tables', { token: admin, body: { ...table, schema: 7 } });
  t.is(wrongType.status, 422);
  t.deepEqual(wrongType.body.detail[0], { loc: ['body', 'schema'], msg: 'Input should be a valid string', type: 'string_type' });
  const skill = await call(t0, 'POST', '/api/knowledge/skills', { token: admin, body: { description: 'd', instructions: 'x' } });
  t.is(skill.status, 422);
  t.deepEqual(skill.body.detail[0].loc, ['body', 'name']);
  // Nothing was written.
  const list = await call(t0, 'GET', '/api/knowledge/tables', { token: admin });
  t.false(list.body.items.some((i: { id: string }) => i.id === 'x'));
});

test('an update keeps comments people wrote in the file', async (t) => {
  await call(t0, 'POST', '/api/knowledge/reports?id=kept', { token: admin, body: { title: 'R', description: 'd', sql: 'SELECT 1', connection: 'wh' } });
  // A human edit with comments arrives through git; simulate it with a direct commit.
  const { commitChanges } = await import('../../src/git/index.ts');
  const repo = await t0.app.services.knowledge.repos.repo('acme');
  await commitChanges({
    repo,
    branch: 'main',
    author: { name: 'Human', email: 'h@example.com', timestamp: 1 },
    message: 'hand edit',
    changes: [{ path: 'reports/kept.yaml', content: '# owned by finance\ntitle: R # short\ndescription: d\nsql: SELECT 1\nconnection: wh\n' }],
  });
  const res = await call(t0, 'PUT', '/api/knowledge/reports/kept', { token: admin, body: { title: 'R', description: 'new', sql: 'SELECT 1', connection: 'wh' } });
  t.is(res.status, 200);
  t.is(res.body.yaml, '# owned by finance\ntitle: R # short\ndescription: new\nsql: SELECT 1\nconnection: wh\n');
});

test('regular users read production but cannot edit; modelers without the merge permission edit only environments', async (t) => {
  const asUser = await call(t0, 'POST', '/api/knowledge/notes', { token: user, body: note('By user') });
  t.is(asUser.status, 403);
  const asModeler = await call(t0, 'POST', '/api/knowledge/notes', { token: modeler, body: note('By modeler') });
  t.is(asModeler.status, 403);
  t.is(asModeler.body.code, 'KNOWLEDGE_READ_ONLY');
  const env = await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Modeler work', color: '#ff0000' } });
  const inEnv = await call(t0, 'POST', '/api/knowledge/notes', { token: modeler, env: env.body.id, body: note('In env only') });
  t.is(inEnv.status, 201);
  // The regular user sends the header but sees production, where the note does not exist.
  t.is((await call(t0, 'GET', '/api/knowledge/notes/in-env-only', { token: user, env: env.body.id })).status, 404);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/in-env-only', { token: modeler, env: env.body.id })).status, 200);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/in-env-only', { token: modeler })).status, 404);
  t.is((await call(t0, 'PUT', '/api/knowledge/notes/in-env-only', { token: user, env: env.body.id, body: note('x') })).status, 403);
});

test('an unknown or foreign environment header answers 404', async (t) => {
  t.is((await call(t0, 'GET', '/api/knowledge/notes', { token: admin, env: 'env_nope' })).status, 404);
  const foreign = await call(t0, 'POST', '/api/environments', { token: otherAdmin, body: { name: 'Theirs', color: '#000' } });
  t.is(foreign.status, 201);
  t.is((await call(t0, 'GET', '/api/knowledge/notes', { token: admin, env: foreign.body.id })).status, 404);
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { token: admin, env: foreign.body.id, body: note('x') })).status, 404);
});

test("organizations never see each other's knowledge", async (t) => {
  await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: note('Acme secret') });
  t.is((await call(t0, 'GET', '/api/knowledge/notes/acme-secret', { token: otherAdmin })).status, 404);
  const list = await call(t0, 'GET', '/api/knowledge/notes', { token: otherAdmin });
  t.false(list.body.items.some((i: { id: string }) => i.id === 'acme-secret'));
});

test('without a credential every knowledge endpoint answers 401', async (t) => {
  t.is((await call(t0, 'GET', '/api/knowledge/notes')).status, 401);
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { body: note('x') })).status, 401);
  t.is((await call(t0, 'GET', '/api/knowledge/model/history')).status, 401);
});

// Serial: reverting the whole model would remove what concurrent tests create.
test.serial('an item and the whole model are reverted to a commit with new commits', async (t) => {
  const first = await call(t0, 'POST', '/api/knowledge/notes?id=rev', { token: admin, body: note('Rev', 'v1') });
  await call(t0, 'PUT', '/api/knowledge/notes/rev', { token: admin, body: note('Rev', 'v2') });
  const r = await call(t0, 'POST', '/api/knowledge/notes/rev/revert', { token: admin, body: { commit: first.body.commit } });
  t.is(r.status, 200);
  t.true(r.body.changed);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/rev', { token: admin })).body.data.body, 'v1');
  t.is((await call(t0, 'GET', '/api/knowledge/notes/rev/history', { token: admin })).body.commits.length, 3);
  await call(t0, 'POST', '/api/knowledge/notes?id=later', { token: admin, body: note('Later') });
  const whole = await call(t0, 'POST', '/api/knowledge/model/revert', { token: admin, body: { commit: first.body.commit } });
  t.is(whole.status, 200);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/later', { token: admin })).status, 404);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/rev', { token: admin })).status, 200);
  const missing = await call(t0, 'POST', '/api/knowledge/model/revert', { token: admin, body: { commit: 'f'.repeat(40) } });
  t.is(missing.status, 404);
  t.is((await call(t0, 'POST', '/api/knowledge/model/revert', { token: admin, body: { commit: 'abc' } })).status, 422);
  t.is((await call(t0, 'POST', '/api/knowledge/model/revert', { token: user, body: { commit: first.body.commit } })).status, 403);
});

test('twenty concurrent creations on production all land', async (t) => {
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(t0, 'POST', `/api/knowledge/notes?id=burst-${i}`, { token: admin, body: note(`Burst ${i}`) })),
  );
  t.true(results.every((r) => r.status === 201));
  const ids = new Set((await call(t0, 'GET', '/api/knowledge/notes', { token: admin })).body.items.map((i: { id: string }) => i.id));
  for (let i = 0; i < 20; i++) t.true(ids.has(`burst-${i}`));
});

test('the OpenAPI document lists the knowledge and environment operations', async (t) => {
  const doc = (await call(t0, 'GET', '/openapi.json')).body;
  t.truthy(doc.paths['/api/knowledge/{kind}/{id}'].put);
  t.truthy(doc.paths['/api/environments/{id}/merge'].post);
  t.truthy(doc.components.schemas.Body_merge_environment);
});
