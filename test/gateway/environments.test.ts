import test from 'ava';
import { resolveRef } from '../../src/git/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let admin: string;
let modeler: string;
let merger: string;
let user: string;
let otherAdmin: string;

test.before(async () => {
  t0 = await startTestApp();
  const org = t0.org('acme');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  merger = t0.session(t0.user({ orgId: org, role: 'modeler', permissions: ['merge_to_production'] }));
  user = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: t0.org('globex'), role: 'admin' }));
  t0.org('solo');
});
test.after.always(() => t0.stop());

const note = (title: string, body = 'text') => ({ title, body });
const mkEnv = async (name: string, token = modeler, extra: Record<string, unknown> = {}) => {
  const res = await call(t0, 'POST', '/api/environments', { token, body: { name, color: '#1e88e5', ...extra } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; name: string; throwaway: boolean; git_branch: string | null };
};
const mainOid = async () => resolveRef({ repo: await t0.app.services.knowledge.repos.repo('acme'), ref: 'main' });

test('admins and modelers create and list environments; regular users are refused', async (t) => {
  const env = await mkEnv('Q4 model', admin);
  t.regex(env.id, /^env_/);
  t.false(env.throwaway);
  t.is(env.git_branch, null);
  const list = await call(t0, 'GET', '/api/environments', { token: modeler });
  t.is(list.status, 200);
  t.true(list.body.some((e: { id: string }) => e.id === env.id));
  t.is((await call(t0, 'GET', '/api/environments', { token: user })).status, 403);
  t.is((await call(t0, 'POST', '/api/environments', { token: user, body: { name: 'x', color: '#fff' } })).status, 403);
  t.is((await call(t0, 'GET', `/api/environments/${env.id}`, { token: user })).status, 403);
  t.is((await call(t0, 'GET', '/api/environments')).status, 401);
});

test('creating an environment validates name, colour and source', async (t) => {
  const bad = await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'x', color: 'blue' } });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.detail[0].loc, ['body', 'color']);
  t.deepEqual((await call(t0, 'POST', '/api/environments', { token: admin, body: { color: '#fff' } })).body.detail[0].loc, ['body', 'name']);
  const src = await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'x', color: '#fff', source_env_id: 'env_nope' } });
  t.is(src.status, 422);
  t.deepEqual(src.body.detail[0].loc, ['body', 'source_env_id']);
  // Names people read in the coloured bar: no control or invisible formatting characters, none that passes for production.
  for (const name of ['a\u0000b', 'tab\there', 'two\nlines', 'a\u202eb', 'zero\u200bwidth', 'Production', 'ＰＲＯＤＵＣＴＩＯＮ']) {
    const res = await call(t0, 'POST', '/api/environments', { token: admin, body: { name, color: '#fff' } });
    t.is(res.status, 422, JSON.stringify(name));
    t.deepEqual(res.body.detail[0].loc, ['body', 'name']);
  }
});

test('a name in look-alike letters is the same name: fullwidth forms are folded before names are compared', async (t) => {
  const first = await mkEnv('Lookalike env');
  t.is(first.name, 'Lookalike env');
  const fullwidth = await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'Ｌｏｏｋａｌｉｋｅ env', color: '#fff' } });
  t.is(fullwidth.status, 409);
  t.is(fullwidth.body.code, 'ENVIRONMENT_NAME_TAKEN');
  const ligature = await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'Oﬃce env', color: '#fff' } });
  t.is(ligature.status, 201);
  t.is(ligature.body.name, 'Office env');
});

test('environment names are unique within an organization, ignoring case: a taken one answers 409', async (t) => {
  const first = await mkEnv('Pricing model');
  const again = await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'PRICING Model', color: '#fff' } });
  t.is(again.status, 409);
  t.is(again.body.code, 'ENVIRONMENT_NAME_TAKEN');
  t.deepEqual(again.body.data, { name: 'PRICING Model' });
  const names = (await call(t0, 'GET', '/api/environments', { token: admin })).body.map((e: { name: string }) => e.name.toLowerCase());
  t.is(names.filter((n: string) => n === 'pricing model').length, 1);
  t.is((await call(t0, 'POST', '/api/environments', { token: otherAdmin, body: { name: 'Pricing model', color: '#fff' } })).status, 201, 'another organization may use it');
  // Two quick fixes started in the same minute get distinct names.
  const q1 = await call(t0, 'POST', '/api/environments/quick_fix', { token: admin, body: { name: 'Same minute' } });
  const q2 = await call(t0, 'POST', '/api/environments/quick_fix', { token: admin, body: { name: 'Same minute' } });
  t.deepEqual([q1.status, q2.status, q1.body.name, q2.body.name], [201, 201, 'Same minute', 'Same minute (2)']);
  t.is((await call(t0, 'GET', `/api/environments/${first.id}`, { token: admin })).body.name, 'Pricing model');
});

test('an organization with no knowledge yet can create an environment', async (t) => {
  const soloAdmin = t0.session(t0.user({ orgId: 'solo', role: 'admin' }));
  const res = await call(t0, 'POST', '/api/environments', { token: soloAdmin, body: { name: 'First', color: '#abc' } });
  t.is(res.status, 201);
  t.deepEqual((await call(t0, 'GET', `/api/environments/${res.body.id}/diff`, { token: soloAdmin })).body, { files: [] });
});

test('an environment forked from another one starts with its changes', async (t) => {
  const a = await mkEnv('Fork source');
  await call(t0, 'POST', '/api/knowledge/notes?id=from-a', { token: modeler, env: a.id, body: note('From A') });
  const b = await mkEnv('Fork child', modeler, { source_env_id: a.id });
  t.is((await call(t0, 'GET', '/api/knowledge/notes/from-a', { token: modeler, env: b.id })).status, 200);
  t.deepEqual((await call(t0, 'GET', `/api/environments/${b.id}/diff`, { token: modeler })).body.files, [{ path: 'notes/from-a.yaml', status: 'added' }]);
});

test('diff lists added, modified and deleted files versus production', async (t) => {
  await call(t0, 'POST', '/api/knowledge/notes?id=diff-mod', { token: admin, body: note('Mod') });
  await call(t0, 'POST', '/api/knowledge/notes?id=diff-del', { token: admin, body: note('Del') });
  const env = await mkEnv('Diffing');
  await call(t0, 'POST', '/api/knowledge/notes?id=diff-add', { token: modeler, env: env.id, body: note('Add') });
  await call(t0, 'PUT', '/api/knowledge/notes/diff-mod', { token: modeler, env: env.id, body: note('Mod', 'changed') });
  await call(t0, 'DELETE', '/api/knowledge/notes/diff-del', { token: modeler, env: env.id });
  // Production moving on does not show up as the environment's change.
  await call(t0, 'POST', '/api/knowledge/notes?id=diff-prod-later', { token: admin, body: note('Later') });
  const res = await call(t0, 'GET', `/api/environments/${env.id}/diff`, { token: modeler });
  t.is(res.status, 200);
  t.deepEqual(res.body.files, [
    { path: 'notes/diff-add.yaml', status: 'added' },
    { path: 'notes/diff-del.yaml', status: 'deleted' },
    { path: 'notes/diff-mod.yaml', status: 'modified' },
  ]);
});

test('diff with lines=true carries each file\'s changed lines as hunks', async (t) => {
  await call(t0, 'POST', '/api/knowledge/notes?id=lines-mod', { token: admin, body: note('Lines', 'first') });
  const env = await mkEnv('Lines');
  await call(t0, 'PUT', '/api/knowledge/notes/lines-mod', { token: modeler, env: env.id, body: note('Lines', 'second') });
  await call(t0, 'POST', '/api/knowledge/notes?id=lines-add', { token: modeler, env: env.id, body: note('Added', 'new') });
  const res = await call(t0, 'GET', `/api/environments/${env.id}/diff?lines=true`, { token: modeler });
  t.is(res.status, 200);
  const [added, modified] = res.body.files as { path: string; hunks: { lines: string[]; old_lines: number }[]; lines_omitted: boolean }[];
  t.is(modified!.path, 'notes/lines-mod.yaml');
  t.false(modified!.lines_omitted);
  t.true(modified!.hunks[0]!.lines.includes('-body: first'));
  t.true(modified!.hunks[0]!.lines.includes('+body: second'));
  t.true(modified!.hunks[0]!.lines.some((l) => l.startsWith(' ')), 'unchanged lines around the change are context');
  t.is(added!.hunks[0]!.old_lines, 0);
  t.true(added!.hunks[0]!.lines.every((l) => l.startsWith('+')));
  // Without the option the answer stays the list of files.
  t.deepEqual((await call(t0, 'GET', `/api/environments/${env.id}/diff`, { token: modeler })).body.files.map((f: object) => Object.keys(f)), [['path', 'status'], ['path', 'status']]);
});

test('diff refuses a lines value other than true or false with 422 naming the query field, and regular users with 403', async (t) => {
  const env = await mkEnv('Lines bad');
  const bad = await call(t0, 'GET', `/api/environments/${env.id}/diff?lines=yes`, { token: modeler });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.detail[0].loc, ['query', 'lines']);
  t.is((await call(t0, 'GET', `/api/environments/${env.id}/diff?lines=true`, { token: user })).status, 403);
  t.is((await call(t0, 'GET', `/api/environments/${env.id}/diff?lines=true`, { token: otherAdmin })).status, 404);
});

// Serial: it checks that production's ref does not move, which concurrent tests would move.
test.serial('conflicts are predicted without moving production, then met by the merge with 409 and the files', async (t) => {
  await call(t0, 'POST', '/api/knowledge/notes?id=contested', { token: admin, body: note('Contested', 'base') });
  const env = await mkEnv('Conflicting');
  await call(t0, 'PUT', '/api/knowledge/notes/contested', { token: modeler, env: env.id, body: note('Contested', 'env side') });
  await call(t0, 'PUT', '/api/knowledge/notes/contested', { token: admin, body: note('Contested', 'production side') });
  const before = await mainOid();
  const predicted = await call(t0, 'GET', `/api/environments/${env.id}/conflicts`, { token: modeler });
  t.is(predicted.status, 200);
  t.false(predicted.body.mergeable);
  t.deepEqual(predicted.body.conflicts, ['notes/contested.yaml']);
  t.is(await mainOid(), before);
  const merged = await call(t0, 'POST', `/api/environments/${env.id}/merge`, { token: admin, body: { confirm: true } });
  t.is(merged.status, 409);
  t.is(merged.body.code, 'MERGE_CONFLICTS');
  t.deepEqual(merged.body.data.conflicts, ['notes/contested.yaml']);
  t.is(await mainOid(), before);
});

test('a clean environment merges by fast-forward, a diverged one with a merge commit', async (t) => {
  const ff = await mkEnv('Fast');
  await call(t0, 'POST', '/api/knowledge/notes?id=ff-note', { token: modeler, env: ff.id, body: note('FF') });
  // Serialize with other tests' production writes: fast-forward needs production unchanged since the fork.
  const res = await call(t0, 'POST', `/api/environments/${ff.id}/merge`, { token: merger, body: { confirm: true } });
  t.is(res.status, 200);
  t.true(['fast_forward', 'merged'].includes(res.body.merge));
  t.false(res.body.deleted);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/ff-note', { token: user })).status, 200);
  const conflicts = await call(t0, 'GET', `/api/environments/${ff.id}/conflicts`, { token: modeler });
  t.deepEqual(conflicts.body, { mergeable: true, merge: 'up_to_date', conflicts: [] });

  const dv = await mkEnv('Diverged');
  await call(t0, 'POST', '/api/knowledge/notes?id=dv-env', { token: modeler, env: dv.id, body: note('env') });
  await call(t0, 'POST', '/api/knowledge/notes?id=dv-prod', { token: admin, body: note('prod') });
  const m = await call(t0, 'POST', `/api/environments/${dv.id}/merge`, { token: admin, body: { confirm: true, delete_after: true } });
  t.is(m.status, 200);
  t.is(m.body.merge, 'merged');
  t.true(m.body.deleted);
  t.is((await call(t0, 'GET', `/api/environments/${dv.id}`, { token: admin })).status, 404);
  const h = await call(t0, 'GET', '/api/knowledge/notes/dv-env/history', { token: admin });
  t.true(h.body.commits.length >= 1);
});

test('merging needs admin or the merge permission and confirm true', async (t) => {
  const env = await mkEnv('Gatekeeping');
  await call(t0, 'POST', '/api/knowledge/notes?id=gate', { token: modeler, env: env.id, body: note('Gate') });
  const asUser = await call(t0, 'POST', `/api/environments/${env.id}/merge`, { token: user, body: { confirm: true } });
  t.is(asUser.status, 403);
  const asModeler = await call(t0, 'POST', `/api/environments/${env.id}/merge`, { token: modeler, body: { confirm: true } });
  t.is(asModeler.status, 403);
  t.is(asModeler.body.code, 'MERGE_FORBIDDEN');
  for (const body of [{}, { confirm: false }]) {
    const res = await call(t0, 'POST', `/api/environments/${env.id}/merge`, { token: admin, body });
    t.is(res.status, 422);
    t.deepEqual(res.body.detail[0].loc, ['body', 'confirm']);
  }
  const wrongType = await call(t0, 'POST', `/api/environments/${env.id}/merge`, { token: admin, body: { confirm: 'yes' } });
  t.is(wrongType.status, 422);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/gate', { token: admin })).status, 404);
  const ok = await call(t0, 'POST', `/api/environments/${env.id}/merge`, { token: merger, body: { confirm: true } });
  t.is(ok.status, 200);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/gate', { token: user })).status, 200);
});

test('unknown and foreign environment ids answer 404 on every endpoint', async (t) => {
  const foreign = (await call(t0, 'POST', '/api/environments', { token: otherAdmin, body: { name: 'Theirs', color: '#000' } })).body.id as string;
  for (const id of ['env_nope', foreign]) {
    t.is((await call(t0, 'GET', `/api/environments/${id}`, { token: admin })).status, 404);
    t.is((await call(t0, 'GET', `/api/environments/${id}/diff`, { token: admin })).status, 404);
    t.is((await call(t0, 'GET', `/api/environments/${id}/conflicts`, { token: admin })).status, 404);
    t.is((await call(t0, 'PUT', `/api/environments/${id}/targets`, { token: admin, body: { targets: {} } })).status, 404);
    t.is((await call(t0, 'POST', `/api/environments/${id}/sync_target`, { token: admin })).status, 404);
    t.is((await call(t0, 'POST', `/api/environments/${id}/merge`, { token: admin, body: { confirm: true } })).status, 404);
    t.is((await call(t0, 'POST', `/api/environments/${id}/keep`, { token: admin })).status, 404);
    t.is((await call(t0, 'DELETE', `/api/environments/${id}?confirm=true`, { token: admin })).status, 404);
  }
  t.false((await call(t0, 'GET', '/api/environments', { token: admin })).body.some((e: { id: string }) => e.id === foreign));
});

test('deleting an environment needs confirm=true', async (t) => {
  const env = await mkEnv('Doomed');
  for (const q of ['', '?confirm=false']) {
    const res = await call(t0, 'DELETE', `/api/environments/${env.id}${q}`, { token: modeler });
    t.is(res.status, 422);
    t.deepEqual(res.body.detail[0].loc, ['query', 'confirm']);
  }
  t.is((await call(t0, 'DELETE', `/api/environments/${env.id}?confirm=maybe`, { token: modeler })).status, 422);
  t.is((await call(t0, 'DELETE', `/api/environments/${env.id}?confirm=true`, { token: user })).status, 403);
  t.is((await call(t0, 'DELETE', `/api/environments/${env.id}?confirm=true`, { token: modeler })).status, 200);
  t.is((await call(t0, 'GET', `/api/environments/${env.id}`, { token: modeler })).status, 404);
  const branches = await import('../../src/git/index.ts').then(async (g) => g.listBranches({ repo: await t0.app.services.knowledge.repos.repo('acme') }));
  t.false(branches.includes(`env/${env.id}`));
});

test('targets are stored with the environment and exposed to the data plane', async (t) => {
  const env = await mkEnv('Targeted');
  const res = await call(t0, 'PUT', `/api/environments/${env.id}/targets`, { token: modeler, body: { targets: { wh: { schema: 'dev_max' }, bq: { project: 'p', dataset: 'd' } } } });
  t.is(res.status, 200);
  t.deepEqual(res.body.targets, { wh: { schema: 'dev_max' }, bq: { project: 'p', dataset: 'd' } });
  const { createTableDocsSource } = await import('../../src/compose/table-docs-source.ts');
  const source = createTableDocsSource(t0.app.services.knowledge);
  t.deepEqual(await source.targets('acme', env.id), { wh: { schema: 'dev_max' }, bq: { schema: 'd', database: 'p' } });
  t.deepEqual(await source.targets('acme', undefined), {});
  await t.throwsAsync(source.targets('globex', env.id), { code: 'ENVIRONMENT_NOT_FOUND' });
  const bad = await call(t0, 'PUT', `/api/environments/${env.id}/targets`, { token: modeler, body: { targets: { wh: { schema: '' } } } });
  t.is(bad.status, 422);
  t.is((await call(t0, 'PUT', `/api/environments/${env.id}/targets`, { token: user, body: { targets: {} } })).status, 403);
});

test('sync_target refreshes table documentation from the dev target, keeping what people wrote', async (t) => {
  const k = t0.app.services.knowledge;
  await call(t0, 'POST', '/api/knowledge/tables', {
    token: admin,
    body: { connection: 'wh', schema: 'main', name: 'customers', description: 'People who buy', columns: [{ name: 'id', type: 'INT', description: 'Key', synonyms: ['client id'] }] },
  });
  const env = await mkEnv('Synced');
  t.is((await call(t0, 'POST', `/api/environments/${env.id}/sync_target`, { token: modeler })).body.code, 'NO_TARGETS');
  await call(t0, 'PUT', `/api/environments/${env.id}/targets`, { token: modeler, body: { targets: { wh: { schema: 'dev' } } } });
  const wired = k.targetSync;
  k.targetSync = undefined;
  const unavailable = await call(t0, 'POST', `/api/environments/${env.id}/sync_target`, { token: modeler });
  t.is(unavailable.status, 503);
  t.is(unavailable.body.code, 'TARGET_SYNC_UNAVAILABLE');
  const seen: unknown[] = [];
  k.targetSync = {
    async readTarget(_p, connectionId, target) {
      seen.push([connectionId, target]);
      return [
        { connection: connectionId, schema: 'main', name: 'customers', columns: [{ name: 'id', type: 'BIGINT' }, { name: 'tier', type: 'VARCHAR' }] },
        { connection: connectionId, schema: 'main', name: 'new_table', description: 'from comment', columns: [{ name: 'x', type: 'INT' }] },
      ];
    },
  };
  try {
    const res = await call(t0, 'POST', `/api/environments/${env.id}/sync_target`, { token: modeler });
    t.is(res.status, 200);
    t.deepEqual(seen, [['wh', { schema: 'dev' }]]);
    const doc = (await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('wh/main.customers')}`, { token: modeler, env: env.id })).body.data;
    t.is(doc.description, 'People who buy');
    t.deepEqual(doc.columns, [{ name: 'id', type: 'BIGINT', description: 'Key', synonyms: ['client id'] }, { name: 'tier', type: 'VARCHAR' }]);
    // Production is untouched; the new table exists only in the environment.
    const prod = (await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('wh/main.customers')}`, { token: modeler })).body.data;
    t.is(prod.columns[0].type, 'INT');
    t.is((await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('wh/main.new_table')}`, { token: modeler })).status, 404);
    const { createTableDocsSource } = await import('../../src/compose/table-docs-source.ts');
    const names = (await createTableDocsSource(k).listTables('acme', env.id)).map((d) => d.name);
    t.true(names.includes('new_table') && names.includes('customers'));
  } finally {
    k.targetSync = wired;
  }
});

test('a quick-fix session starts a throwaway environment that "Keep it" makes lasting', async (t) => {
  const res = await call(t0, 'POST', '/api/environments/quick_fix', { token: modeler, body: {} });
  t.is(res.status, 201);
  t.true(res.body.throwaway);
  t.truthy(res.body.expires_at);
  t.is((await call(t0, 'POST', '/api/environments/quick_fix', { token: user, body: {} })).status, 403);
  const kept = await call(t0, 'POST', `/api/environments/${res.body.id}/keep`, { token: modeler });
  t.is(kept.status, 200);
  t.false(kept.body.throwaway);
  t.is(kept.body.expires_at, null);
});

test('a throwaway environment is deleted when its changes are applied to production', async (t) => {
  const env = (await call(t0, 'POST', '/api/environments/quick_fix', { token: admin, body: { name: 'Fix synonyms' } })).body;
  await call(t0, 'POST', '/api/knowledge/notes?id=quick-fixed', { token: admin, env: env.id, body: note('Quick') });
  const res = await call(t0, 'POST', `/api/environments/${env.id}/merge`, { token: admin, body: { confirm: true } });
  t.is(res.status, 200);
  t.true(res.body.deleted);
  t.is((await call(t0, 'GET', `/api/environments/${env.id}`, { token: admin })).status, 404);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/quick-fixed', { token: user })).status, 200);
});
