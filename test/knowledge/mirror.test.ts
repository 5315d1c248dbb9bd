import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createBareRemote, remoteFile, remoteRefs, startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.ts';
import { startGitHubApi, type GitHubApi } from '../helpers/github-api.ts';

const TOKEN = 'ghp_test_token_123';
let t0: TestApp;
let git: GitHttpServer;
let gh: GitHubApi;
let ghe: GitHubApi;
let root: string;
let admin: string;
let modeler: string;
let user: string;

test.before(async () => {
  root = mkdtempSync(join(tmpdir(), 'sextant-remote-'));
  git = await startGitHttpServer({ root, auth: { username: 'bot', password: TOKEN } });
  gh = await startGitHubApi();
  ghe = await startGitHubApi({ prefix: '/api/v3' });
  t0 = await startTestApp();
  for (const org of ['acme', 'pr', 'ghe', 'off', 'bad']) t0.org(org);
  admin = t0.session(t0.user({ orgId: 'acme', role: 'admin', permissions: ['merge_to_production'] }));
  modeler = t0.session(t0.user({ orgId: 'acme', role: 'modeler' }));
  user = t0.session(t0.user({ orgId: 'acme', role: 'user' }));
});
test.after.always(async () => {
  await t0?.stop();
  await git?.stop();
  await gh?.stop();
  await ghe?.stop();
  rmSync(root, { recursive: true, force: true });
});

const note = (title: string, body = 'text') => ({ title, body });
const setMirror = (token: string, name: string, extra: Record<string, unknown> = {}) =>
  call(t0, 'PUT', '/api/knowledge/mirror', { token, body: { url: `${git.url}/${name}.git`, username: 'bot', token: TOKEN, ...extra } });

// Serial: the steps follow one organization's mirror through its life.
test.serial('production and lasting environments are pushed after each change; throwaway ones never', async (t) => {
  const remote = createBareRemote(root, 'acme-knowledge');
  await call(t0, 'POST', '/api/knowledge/notes?id=before', { token: admin, body: note('Before mirroring') });
  t.is((await setMirror(modeler, 'acme-knowledge')).status, 403);
  for (const url of ['ftp://example.com/x.git', 'file:///etc/repo.git', 'not a url']) {
    const bad = await call(t0, 'PUT', '/api/knowledge/mirror', { token: admin, body: { url } });
    t.is(bad.status, 422);
    t.deepEqual(bad.body.detail[0].loc, ['body', 'url']);
  }
  t.is((await call(t0, 'PUT', '/api/knowledge/mirror', { body: { url: 'https://example.com/a/b.git' } })).status, 401);
  const set = await setMirror(admin, 'acme-knowledge');
  t.is(set.status, 200);
  t.is(set.body.enabled, true);
  t.is(set.body.has_token, true);
  t.false(JSON.stringify(set.body).includes(TOKEN));
  // The credential is sealed at rest.
  const row = t0.app.services.store.sqlite!.prepare('SELECT secret_sealed FROM knowledge_mirrors WHERE org_id = ?').get('acme') as { secret_sealed: string };
  t.false(row.secret_sealed.includes(TOKEN));
  t.truthy(remoteFile(remote, 'main', 'notes/before.yaml'));

  await call(t0, 'POST', '/api/knowledge/notes?id=after', { token: admin, body: note('After') });
  t.truthy(remoteFile(remote, 'main', 'notes/after.yaml'));

  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Q4 Model', color: '#123456' } })).body;
  t.is(env.git_branch, 'service/env-q4-model');
  t.truthy(remoteRefs(remote)['refs/heads/service/env-q4-model']);
  await call(t0, 'POST', '/api/knowledge/notes?id=in-env', { token: modeler, env: env.id, body: note('In env') });
  t.truthy(remoteFile(remote, 'service/env-q4-model', 'notes/in-env.yaml'));
  t.is(remoteFile(remote, 'main', 'notes/in-env.yaml'), undefined);

  const quick = (await call(t0, 'POST', '/api/environments/quick_fix', { token: modeler, body: {} })).body;
  t.is(quick.git_branch, null);
  await call(t0, 'POST', '/api/knowledge/notes?id=quick', { token: modeler, env: quick.id, body: note('Quick') });
  t.false(Object.keys(remoteRefs(remote)).some((r) => r.includes('quick-fix')));
  const kept = (await call(t0, 'POST', `/api/environments/${quick.id}/keep`, { token: modeler })).body;
  t.regex(kept.git_branch, /^service\/env-quick-fix-/);
  t.truthy(remoteFile(remote, kept.git_branch, 'notes/quick.yaml'));

  const merged = await call(t0, 'POST', `/api/environments/${env.id}/merge`, { token: admin, body: { confirm: true } });
  t.is(merged.status, 200);
  t.truthy(remoteFile(remote, 'main', 'notes/in-env.yaml'));

  t.is((await call(t0, 'DELETE', `/api/environments/${env.id}?confirm=true`, { token: modeler })).status, 200);
  t.is(remoteRefs(remote)['refs/heads/service/env-q4-model'], undefined);
  const status = (await call(t0, 'GET', '/api/knowledge/mirror', { token: admin })).body;
  t.is(status.last_push_error, null);
  t.truthy(status.last_push_at);
});

test('a failing push never fails the change and is reported in the mirror status', async (t) => {
  createBareRemote(root, 'bad-knowledge');
  const badAdmin = t0.session(t0.user({ orgId: 'bad', role: 'admin' }));
  await call(t0, 'PUT', '/api/knowledge/mirror', { token: badAdmin, body: { url: `${git.url}/bad-knowledge.git`, username: 'bot', token: 'wrong' } });
  const res = await call(t0, 'POST', '/api/knowledge/notes', { token: badAdmin, body: note('Still saved') });
  t.is(res.status, 201);
  const status = (await call(t0, 'GET', '/api/knowledge/mirror', { token: badAdmin })).body;
  t.regex(status.last_push_error, /^main: /);
});

test('anyone may open a pull request for a mirrored environment; it needs mirroring', async (t) => {
  const prAdmin = t0.session(t0.user({ orgId: 'pr', role: 'admin' }));
  const prUser = t0.session(t0.user({ orgId: 'pr', role: 'user' }));
  const env = (await call(t0, 'POST', '/api/environments', { token: prAdmin, body: { name: 'Better docs', color: '#00ff00' } })).body;
  const off = await call(t0, 'POST', `/api/environments/${env.id}/pull_request`, { token: prUser, body: {} });
  t.is(off.status, 409);
  t.is(off.body.code, 'MIRRORING_OFF');
  const remote = createBareRemote(root, 'pr-knowledge');
  await call(t0, 'POST', '/api/knowledge/notes?id=base', { token: prAdmin, body: note('Base') });
  t.is((await setMirror(prAdmin, 'pr-knowledge', { api_base_url: gh.url, repository: 'acme/knowledge' })).status, 200);
  await call(t0, 'POST', '/api/knowledge/notes?id=proposed', { token: prAdmin, env: env.id, body: note('Proposed') });
  const pr = await call(t0, 'POST', `/api/environments/${env.id}/pull_request`, { token: prUser, body: { title: 'Better docs' } });
  t.is(pr.status, 201);
  t.is(pr.body.number, 1);
  t.is(pr.body.url, 'https://github.example/acme/knowledge/pull/1');
  const sent = gh.calls.at(-1)!;
  t.is(sent.path, '/repos/acme/knowledge/pulls');
  t.deepEqual([sent.body.head, sent.body.base, sent.body.title], ['service/env-better-docs', 'main', 'Better docs']);
  t.regex(sent.authorization ?? '', new RegExp(TOKEN));
  t.truthy(remoteFile(remote, 'service/env-better-docs', 'notes/proposed.yaml'));

  const quick = (await call(t0, 'POST', '/api/environments/quick_fix', { token: prAdmin, body: {} })).body;
  const q = await call(t0, 'POST', `/api/environments/${quick.id}/pull_request`, { token: prUser, body: {} });
  t.is(q.status, 409);
  t.is(q.body.code, 'THROWAWAY_NOT_MIRRORED');
  t.is((await call(t0, 'POST', `/api/environments/env_nope/pull_request`, { token: prUser, body: {} })).status, 404);
  t.is((await call(t0, 'POST', `/api/environments/${env.id}/pull_request`, { token: admin, body: {} })).status, 404);
  t.is((await call(t0, 'POST', `/api/environments/${env.id}/pull_request`, { body: {} })).status, 401);
});

test('pull requests work against a GitHub Enterprise base URL, with the repository taken from the remote URL', async (t) => {
  const gheAdmin = t0.session(t0.user({ orgId: 'ghe', role: 'admin' }));
  createBareRemote(root, 'octo/ghe-knowledge');
  await call(t0, 'POST', '/api/knowledge/notes?id=base', { token: gheAdmin, body: note('Base') });
  await setMirror(gheAdmin, 'octo/ghe-knowledge', { api_base_url: ghe.url });
  const env = (await call(t0, 'POST', '/api/environments', { token: gheAdmin, body: { name: 'Enterprise', color: '#000' } })).body;
  const pr = await call(t0, 'POST', `/api/environments/${env.id}/pull_request`, { token: gheAdmin, body: {} });
  t.is(pr.status, 201);
  t.is(ghe.calls.at(-1)!.path, '/api/v3/repos/octo/ghe-knowledge/pulls');
  t.is(ghe.calls.at(-1)!.body.head, 'service/env-enterprise');
});

test('turning mirroring off stops pushes and hides the branch name', async (t) => {
  const offAdmin = t0.session(t0.user({ orgId: 'off', role: 'admin' }));
  const remote = createBareRemote(root, 'off-knowledge');
  await call(t0, 'POST', '/api/knowledge/notes?id=one', { token: offAdmin, body: note('One') });
  await setMirror(offAdmin, 'off-knowledge');
  t.truthy(remoteFile(remote, 'main', 'notes/one.yaml'));
  t.is((await call(t0, 'DELETE', '/api/knowledge/mirror', { token: offAdmin })).status, 204);
  await call(t0, 'POST', '/api/knowledge/notes?id=two', { token: offAdmin, body: note('Two') });
  t.is(remoteFile(remote, 'main', 'notes/two.yaml'), undefined);
  t.deepEqual((await call(t0, 'GET', '/api/knowledge/mirror', { token: offAdmin })).body, { enabled: false });
  const env = (await call(t0, 'POST', '/api/environments', { token: offAdmin, body: { name: 'Local', color: '#000' } })).body;
  t.is(env.git_branch, null);
  t.is((await call(t0, 'GET', '/api/knowledge/mirror', { token: user })).status, 403);
});
