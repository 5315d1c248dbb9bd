// A damaged knowledge repository answers 503 REPOSITORY_DAMAGED (interface: knowledge, errors), never a
// 500, never an empty production that a write would start over; other organizations are untouched.
import test from 'ava';
import * as fs from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

function orgWithAdmin(name: string) {
  const org = t0.org(name);
  return { org, token: t0.session(t0.user({ orgId: org, role: 'admin', permissions: ['merge_to_production'] })) };
}
const gitdirOf = async (org: string) => (await t0.app.services.knowledge.repos.repo(org)).gitdir;

test('a zero-byte object reachable from production answers 503 REPOSITORY_DAMAGED on every read and write that reaches it, never 500', async (t) => {
  const { org, token } = orgWithAdmin('broken-object');
  const other = orgWithAdmin('healthy-object');
  t.is((await call(t0, 'POST', '/api/knowledge/notes?id=hurt', { token, body: { title: 'Hurt', body: 'zero bytes soon' } })).status, 201);
  t.is((await call(t0, 'POST', '/api/knowledge/notes?id=fine', { token: other.token, body: { title: 'Hurt', body: 'zero bytes soon' } })).status, 201);
  // The organizations hold the same blob in their own repositories: only this one is damaged.
  const { oid } = await git.hashBlob({ object: 'title: Hurt\nbody: zero bytes soon\n' });
  const file = join(await gitdirOf(org), 'objects', oid.slice(0, 2), oid.slice(2));
  fs.chmodSync(file, 0o644);
  fs.writeFileSync(file, '');
  for (const [method, path, body] of [
    ['GET', '/api/knowledge/notes/hurt', undefined],
    ['GET', '/api/knowledge/notes', undefined],
    ['PUT', '/api/knowledge/notes/hurt', { title: 'Hurt', body: 'again' }],
  ] as const) {
    const res = await call(t0, method, path, { token, body });
    t.is(res.status, 503, `${method} ${path}`);
    t.is(res.body.code, 'REPOSITORY_DAMAGED');
  }
  t.is((await call(t0, 'GET', '/api/knowledge/notes/fine', { token: other.token })).status, 200);
});

test('production deleted with its reflog answers 503 REPOSITORY_DAMAGED and a write does not start it over', async (t) => {
  const { org, token } = orgWithAdmin('lost-main');
  const other = orgWithAdmin('kept-main');
  t.is((await call(t0, 'POST', '/api/knowledge/notes?id=first', { token, body: { title: 'First', body: 'x' } })).status, 201);
  t.is((await call(t0, 'POST', '/api/knowledge/notes?id=first', { token: other.token, body: { title: 'First', body: 'x' } })).status, 201);
  const gitdir = await gitdirOf(org);
  fs.rmSync(join(gitdir, 'refs', 'heads', 'main'));
  fs.rmSync(join(gitdir, 'logs', 'refs', 'heads', 'main'));
  for (const [method, path, body] of [
    ['GET', '/api/knowledge/notes', undefined],
    ['GET', '/api/knowledge/model/history', undefined],
    ['POST', '/api/knowledge/notes?id=second', { title: 'Second', body: 'y' }],
    ['POST', '/api/environments', { name: 'After the loss', color: '#00ff00' }],
  ] as const) {
    const res = await call(t0, method, path, { token, body });
    t.is(res.status, 503, `${method} ${path}`);
    t.is(res.body.code, 'REPOSITORY_DAMAGED');
  }
  t.false(fs.existsSync(join(gitdir, 'refs', 'heads', 'main')));
  t.is((await call(t0, 'GET', '/api/knowledge/notes', { token: other.token })).body.items.length, 1);
});

test('an organization that never had knowledge reads an empty production and starts it with its first write', async (t) => {
  const { token } = orgWithAdmin('fresh');
  const empty = await call(t0, 'GET', '/api/knowledge/notes', { token });
  t.is(empty.status, 200);
  t.deepEqual(empty.body.items, []);
  t.is((await call(t0, 'POST', '/api/knowledge/notes?id=first', { token, body: { title: 'First', body: 'x' } })).status, 201);
});
