// `sextant env update` and `sextant env resolve` (issue 35): an environment that conflicts with
// production takes production's changes, each conflicting file resolved from the command line, then merges.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../helpers/api.ts';
import { cliRunner, type CliRunner, CLI_SOURCE } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let admin: string;
let cli: CliRunner;
test.before(async () => {
  t0 = await startTestApp();
  const user = t0.user({ orgId: t0.org('acme'), role: 'admin', permissions: ['merge_to_production'] });
  admin = t0.session(user);
  cli = cliRunner(CLI_SOURCE, t0.url);
  writeFileSync(join(cli.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(user, 'cli') }));
});
test.after.always(() => t0.stop());

const note = (title: string) => ({ title, body: `${title} body` });

test('env update lists what conflicts; env resolve settles each file in one commit, after which the merge applies', async (t) => {
  for (const id of ['a', 'b', 'c']) await call(t0, 'POST', `/api/knowledge/notes?id=${id}`, { token: admin, body: note(`${id} base`) });
  const env = (await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'Resolving', color: '#1e88e5' } })).body.id as string;
  for (const id of ['a', 'b', 'c']) {
    await call(t0, 'PUT', `/api/knowledge/notes/${id}`, { token: admin, env, body: note(`${id} env`) });
    await call(t0, 'PUT', `/api/knowledge/notes/${id}`, { token: admin, body: note(`${id} prod`) });
  }
  t.is((await cli.run(['env', 'use', 'RESOLVING'])).code, 0, 'a name picks the environment whatever its case');
  const predicted = await cli.run(['env', 'conflicts']);
  t.is(predicted.code, 1);
  t.regex(predicted.stdout, /sextant env update/);

  const listed = await cli.run(['env', 'update']);
  t.is(listed.code, 1);
  t.regex(listed.stdout, /notes\/a\.yaml\n {2}notes\/b\.yaml\n {2}notes\/c\.yaml/);
  t.regex(listed.stdout, /sextant env resolve --ours/);

  t.is((await cli.run(['env', 'resolve'])).code, 2, 'resolve without a file to resolve is a usage error');
  const partial = await cli.run(['env', 'resolve', '--ours', 'notes/a.yaml', '--json']);
  t.is(partial.code, 1);
  t.deepEqual(JSON.parse(partial.stdout).data.conflicts, ['notes/b.yaml', 'notes/c.yaml']);

  const edited = join(cli.configDir, 'c-merged.yaml');
  writeFileSync(edited, 'title: c both\nbody: merged by hand\n');
  const bad = await cli.run(['env', 'resolve', '--ours', 'notes/a.yaml', '--theirs', 'notes/b.yaml', '--file', 'notes/c.yaml']);
  t.is(bad.code, 2);
  const done = await cli.run(['env', 'resolve', '--ours', 'notes/a.yaml', '--theirs', 'notes/b.yaml', '--file', `notes/c.yaml=${edited}`]);
  t.is(done.code, 0, done.stderr);
  t.regex(done.stdout, /3 file\(s\) resolved/);
  const read = async (id: string, envId?: string) => (await call(t0, 'GET', `/api/knowledge/notes/${id}`, { token: admin, env: envId })).body.data.title as string;
  t.deepEqual([await read('a', env), await read('b', env), await read('c', env)], ['a env', 'b prod', 'c both']);

  t.is((await cli.run(['env', 'conflicts'])).code, 0);
  t.is((await cli.run(['env', 'merge', '--confirm'])).code, 0);
  t.deepEqual([await read('a'), await read('b'), await read('c')], ['a env', 'b prod', 'c both']);
  const again = await cli.run(['env', 'update']);
  t.is(again.code, 0, again.stderr);
});

test('env resolve of a file that does not conflict is refused with the field named (422, exit 2)', async (t) => {
  const env = (await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'Quiet', color: '#1e88e5' } })).body.id as string;
  const res = await cli.run(['env', 'resolve', '--id', env, '--theirs', 'notes/none.yaml']);
  t.is(res.code, 2);
  t.regex(res.stderr, /resolutions\.0\.path/);
});
