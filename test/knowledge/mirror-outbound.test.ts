// Mirroring as an attacker's organization uses it: its admin names the git remote and the GitHub API
// base, and the gateway pushes and posts there. Aimed at an internal service, in any spelling or through
// a name, nothing reaches it, and the mirror status and the pull-request answer read exactly as for an
// unreachable host or a remote that refuses: they map no ports and repeat nothing the remote said.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createBareRemote, remoteFile, startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.ts';
import { startGitHubApi, type GitHubApi } from '../helpers/github-api.ts';
import { fakeDns, startInternalServer, type InternalServer } from '../helpers/internal-server.ts';

const TOKEN = 'ghp_attacker_token';
let t0: TestApp;
let root: string;
let git: GitHttpServer;
/** An allowed GitHub API that refuses every pull request (HTTP 422). */
let refusingApi: GitHubApi;
/** The internal service the attacker aims at: it must hear nothing. */
let internal: InternalServer;
let notFound: InternalServer;

test.before(async () => {
  root = mkdtempSync(join(tmpdir(), 'sextant-remote-'));
  git = await startGitHttpServer({ root, auth: { username: 'bot', password: TOKEN } });
  refusingApi = await startGitHubApi({ headExists: () => false });
  internal = await startInternalServer();
  notFound = await startInternalServer((_req, res) => {
    res.statusCode = 404;
    res.end('internal-secret-404-page');
  });
  const names = { 'git.public.example': '127.0.0.1', 'api.public.example': '127.0.0.1', 'git.attacker.example': '127.0.0.1' };
  // Only the public-looking names the operator allowed pass; loopback itself is not allowed here.
  t0 = await startTestApp({ SEXTANT_OUTBOUND_ALLOW: 'git.public.example,api.public.example' }, { outboundLookup: fakeDns(names) });
});
test.after.always(async () => {
  await t0?.stop();
  for (const s of [git, refusingApi, internal, notFound]) await s?.stop();
  rmSync(root, { recursive: true, force: true });
});

const hostile = () => [
  `http://127.0.0.1:${internal.port}`,
  `http://localhost:${internal.port}`,
  `http://2130706433:${internal.port}`,
  `http://0.0.0.0:${internal.port}`,
  `http://[::ffff:127.0.0.1]:${internal.port}`,
  `http://0177.0.0.1:${internal.port}`,
  `http://git.attacker.example:${internal.port}`,
  'http://169.254.169.254',
];
const failingAllowed = () => ['http://git.public.example:9', `http://git.public.example:${notFound.port}`];
const note = (title: string) => ({ title, body: 'text' });

test('a mirror remote at an internal address is never pushed to, and its status reads like any failed push', async (t) => {
  const orgId = t0.org();
  const admin = t0.session(t0.user({ orgId, role: 'admin' }));
  await call(t0, 'POST', '/api/knowledge/notes?id=one', { token: admin, body: note('One') });
  const errors = new Set<string>();
  for (const base of [...hostile(), ...failingAllowed()]) {
    const set = await call(t0, 'PUT', '/api/knowledge/mirror', { token: admin, body: { url: `${base}/knowledge.git`, username: 'bot', token: TOKEN } });
    t.is(set.status, 200, base);
    await call(t0, 'POST', '/api/knowledge/notes', { token: admin, body: note(`After ${base}`) });
    const status = (await call(t0, 'GET', '/api/knowledge/mirror', { token: admin })).body;
    errors.add(status.last_push_error);
  }
  t.is(errors.size, 1, [...errors].join('\n'));
  t.regex([...errors][0]!, /^main: /);
  t.false([...errors][0]!.includes('internal-secret'));
  t.deepEqual(internal.hits, []);
});

test('a pull request against an internal GitHub API base is never sent, and fails exactly like a refused one', async (t) => {
  const orgId = t0.org();
  const admin = t0.session(t0.user({ orgId, role: 'admin' }));
  const remote = createBareRemote(root, `${orgId}-knowledge`);
  await call(t0, 'POST', '/api/knowledge/notes?id=base', { token: admin, body: note('Base') });
  const gitUrl = `${git.url.replace('127.0.0.1', 'git.public.example')}/${orgId}-knowledge.git`;
  const set = await call(t0, 'PUT', '/api/knowledge/mirror', { token: admin, body: { url: gitUrl, username: 'bot', token: TOKEN, api_base_url: `http://127.0.0.1:${internal.port}`, repository: 'acme/knowledge' } });
  t.is(set.status, 200);
  // The allowed remote was pushed to: the guard lets the operator's names through.
  t.truthy(remoteFile(remote, 'main', 'notes/base.yaml'));
  const env = (await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'Proposal', color: '#00ff00' } })).body;
  const answers = new Set<string>();
  for (const apiBase of [...hostile(), 'http://api.public.example:9', refusingApi.url.replace('127.0.0.1', 'api.public.example')]) {
    t0.app.services.store.sqlite!.prepare('UPDATE knowledge_mirrors SET api_base_url = ? WHERE org_id = ?').run(apiBase, orgId);
    const pr = await call(t0, 'POST', `/api/environments/${env.id}/pull_request`, { token: admin, body: { title: 'Mine' } });
    t.is(pr.status, 409, apiBase);
    t.is(pr.body.code, 'PULL_REQUEST_FAILED');
    answers.add(JSON.stringify(pr.body));
  }
  t.is(answers.size, 1, [...answers].join('\n'));
  t.is(refusingApi.calls.length, 1);
  t.deepEqual(internal.hits, []);
});
