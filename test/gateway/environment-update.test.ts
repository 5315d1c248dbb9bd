// Resolving what conflicts (issue 35): the conflicting files' versions and fields, and the update of an
// environment with production's changes, each conflicting file resolved, as one merge commit.
import test from 'ava';
import git from 'isomorphic-git';
import { resolveRef } from '../../src/git/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let admin: string;
let modeler: string;
let user: string;
let otherAdmin: string;

test.before(async () => {
  t0 = await startTestApp();
  const org = t0.org('acme');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  user = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: t0.org('globex'), role: 'admin' }));
});
test.after.always(() => t0.stop());

const repo = () => t0.app.services.knowledge.repos.repo('acme');
const tip = async (ref: string) => resolveRef({ repo: await repo(), ref });

/** An environment and production that both changed the note `id`'s title and body (and one field each). */
async function conflicted(id: string) {
  await call(t0, 'POST', `/api/knowledge/notes?id=${id}`, { token: admin, body: { title: 'Fiscal year', body: 'Starts in April.\n', tags: ['dates'] } });
  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: `Env ${id}`, color: '#1e88e5' } })).body as { id: string };
  const put = async (token: string, body: object, envId?: string) => {
    const res = await call(t0, 'PUT', `/api/knowledge/notes/${id}`, { token, env: envId, body });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  };
  await put(modeler, { title: 'Fiscal year (env)', body: 'Starts in April, env.\n', tags: ['dates', 'env'] }, env.id);
  await put(admin, { title: 'Fiscal year (prod)', body: 'Starts in April, prod.\n', tags: ['dates'] });
  await call(t0, 'POST', `/api/knowledge/notes?id=${id}-prod-only`, { token: admin, body: { title: 'Only in production', body: 'x' } });
  return { env: env.id, path: `notes/${id}.yaml` };
}

test('conflicts with details show each file’s three versions and its fields side by side', async (t) => {
  const { env, path } = await conflicted('details');
  const res = await call(t0, 'GET', `/api/environments/${env}/conflicts?details=true`, { token: modeler });
  t.is(res.status, 200);
  t.deepEqual(res.body.conflicts, [path]);
  const [file] = res.body.files;
  t.is(file.path, path);
  t.true(file.base.includes('title: Fiscal year\n'));
  t.true(file.environment.includes('(env)'));
  t.true(file.production.includes('(prod)'));
  t.deepEqual(file.fields, [
    { name: 'title', base: 'Fiscal year', environment: 'Fiscal year (env)', production: 'Fiscal year (prod)', conflict: true },
    { name: 'body', base: 'Starts in April.\n', environment: 'Starts in April, env.\n', production: 'Starts in April, prod.\n', conflict: true },
    { name: 'tags', base: ['dates'], environment: ['dates', 'env'], production: ['dates'], conflict: false, merged: ['dates', 'env'] },
  ]);
  t.false('files' in (await call(t0, 'GET', `/api/environments/${env}/conflicts`, { token: modeler })).body);
  const bad = await call(t0, 'GET', `/api/environments/${env}/conflicts?details=yes`, { token: modeler });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.detail[0].loc, ['query', 'details']);
});

// Serial: it checks production's commit as a parent, which concurrent tests would move.
test.serial('an update resolved field by field is one merge commit, after which the environment merges', async (t) => {
  const { env, path } = await conflicted('fields');
  const before = { env: await tip(`env/${env}`), main: await tip('main') };
  const unresolved = await call(t0, 'POST', `/api/environments/${env}/update`, { token: modeler, body: {} });
  t.is(unresolved.status, 409);
  t.is(unresolved.body.code, 'MERGE_CONFLICTS');
  t.deepEqual(unresolved.body.data.conflicts, [path]);
  t.is(await tip(`env/${env}`), before.env, 'a refused update leaves the environment as it was');

  const value = { title: 'Fiscal year (prod)', body: 'Starts in April, env.\n', tags: ['dates', 'env'] };
  const res = await call(t0, 'POST', `/api/environments/${env}/update`, { token: modeler, body: { resolutions: [{ path, keep: 'merged', value }] } });
  t.is(res.status, 200);
  t.is(res.body.merge, 'merged');
  const after = await tip(`env/${env}`);
  t.is(res.body.commit, after);
  const { commit } = await git.readCommit({ fs: (await repo()).fs, gitdir: (await repo()).gitdir, oid: after! });
  t.deepEqual(commit.parent, [before.env, before.main], 'one commit, with the environment and production as parents');
  t.regex(commit.message, /^Update environment "Env fields" with production\nnotes\/fields.yaml: kept a merged version/);

  t.deepEqual((await call(t0, 'GET', `/api/environments/${env}/conflicts`, { token: modeler })).body.conflicts, []);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/fields-prod-only', { token: modeler, env })).status, 200, "production's other changes came in");
  const merged = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: admin, body: { confirm: true } });
  t.is(merged.status, 200);
  const prod = await call(t0, 'GET', '/api/knowledge/notes/fields', { token: user });
  t.is(JSON.stringify(prod.body).includes('Starts in April, env.'), true);
  t.is(JSON.stringify(prod.body).includes('Fiscal year (prod)'), true);
});

test("keeping the environment's or production's version, or a merged text, resolves a file", async (t) => {
  for (const [keep, expected] of [['environment', '(env)'], ['production', '(prod)']] as const) {
    const { env, path } = await conflicted(`keep-${keep}`);
    const res = await call(t0, 'POST', `/api/environments/${env}/update`, { token: modeler, body: { resolutions: [{ path, keep }] } });
    t.is(res.status, 200, keep);
    const file = (await call(t0, 'GET', `/api/environments/${env}/conflicts`, { token: modeler })).body;
    t.deepEqual(file.conflicts, [], keep);
    const text = JSON.stringify((await call(t0, 'GET', `/api/knowledge/notes/keep-${keep}`, { token: modeler, env })).body);
    t.true(text.includes(expected), keep);
  }
  const { env, path } = await conflicted('text');
  const content = '# merged by hand\ntitle: Fiscal year (both)\nbody: |\n  Starts in April.\ntags: [dates]\n';
  t.is((await call(t0, 'POST', `/api/environments/${env}/update`, { token: modeler, body: { resolutions: [{ path, keep: 'merged', content }] } })).status, 200);
  const r = await repo();
  const { blob } = await git.readBlob({ fs: r.fs, gitdir: r.gitdir, oid: (await tip(`env/${env}`))!, filepath: path });
  t.is(Buffer.from(blob).toString('utf8'), content, 'the merged text is written as sent');
});

/** Eight levels of aliases, nine of each: 9^8 strings once expanded. */
const BOMB = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`)].join('\n') + '\n';

test('resolutions are checked: only conflicting files, once, and a merged item passes its schema (422)', async (t) => {
  const { env, path } = await conflicted('checks');
  const before = await tip(`env/${env}`);
  const post = (resolutions: unknown) => call(t0, 'POST', `/api/environments/${env}/update`, { token: modeler, body: { resolutions } });
  const cases: [unknown, (string | number)[]][] = [
    [[{ path: 'notes/checks-prod-only.yaml', keep: 'production' }], ['body', 'resolutions', 0, 'path']],
    [[{ path, keep: 'production' }, { path, keep: 'environment' }], ['body', 'resolutions', 1, 'path']],
    [[{ path, keep: 'merged' }], ['body', 'resolutions', 0]],
    [[{ path, keep: 'merged', value: { title: 'No body' } }], ['body', 'resolutions', 0, 'value', 'body']],
    [[{ path, keep: 'merged', content: 'title: [unclosed' }], ['body', 'resolutions', 0, 'content']],
    // Aliases expanded past the YAML library's count (a "billion laughs" document): refused, not a 500.
    [[{ path, keep: 'merged', content: `${BOMB}title: bomb\nbody: *h\n` }], ['body', 'resolutions', 0, 'content']],
    [[{ path, keep: 'theirs' }], ['body', 'resolutions', 0, 'keep']],
  ];
  for (const [resolutions, loc] of cases) {
    const res = await post(resolutions);
    t.is(res.status, 422, JSON.stringify(resolutions));
    t.true(Array.isArray(res.body.detail), 'HTTPValidationError shape');
    t.deepEqual(res.body.detail[0].loc, loc, JSON.stringify(resolutions));
  }
  t.is(await tip(`env/${env}`), before, 'nothing was written');
});

// Serial: "up to date" needs production unchanged by concurrent tests.
test.serial('an environment without conflicts takes production’s changes as a merge commit; up to date writes nothing', async (t) => {
  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Plain update', color: '#1e88e5' } })).body.id as string;
  await call(t0, 'POST', '/api/knowledge/notes?id=plain-env', { token: modeler, env, body: { title: 'Env', body: 'x' } });
  await call(t0, 'POST', '/api/knowledge/notes?id=plain-prod', { token: admin, body: { title: 'Prod', body: 'x' } });
  const res = await call(t0, 'POST', `/api/environments/${env}/update`, { token: modeler });
  t.is(res.status, 200);
  t.is(res.body.merge, 'merged');
  t.is((await call(t0, 'GET', '/api/knowledge/notes/plain-prod', { token: modeler, env })).status, 200);
  const again = await call(t0, 'POST', `/api/environments/${env}/update`, { token: modeler, body: {} });
  t.deepEqual(again.body, { merge: 'up_to_date', commit: null });
});

test('updating needs a credential, the modeler role and an environment of the caller’s organization', async (t) => {
  const { env, path } = await conflicted('access');
  const body = { resolutions: [{ path, keep: 'production' }] };
  t.is((await call(t0, 'POST', `/api/environments/${env}/update`, { body })).status, 401);
  t.is((await call(t0, 'POST', `/api/environments/${env}/update`, { token: user, body })).status, 403);
  t.is((await call(t0, 'GET', `/api/environments/${env}/conflicts?details=true`, { token: user })).status, 403);
  t.is((await call(t0, 'POST', `/api/environments/${env}/update`, { token: otherAdmin, body })).status, 404);
  t.is((await call(t0, 'GET', `/api/environments/${env}/conflicts?details=true`, { token: otherAdmin })).status, 404);
  t.is((await call(t0, 'POST', '/api/environments/env_nope/update', { token: admin, body })).status, 404);
  t.deepEqual((await call(t0, 'GET', `/api/environments/${env}/conflicts`, { token: modeler })).body.conflicts, [path], 'still unresolved');
});
