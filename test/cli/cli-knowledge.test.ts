// `sextant knowledge get|put` as a person edits an item: the version read travels in the file and
// goes back as If-Match, so a save over a change made since is refused and nothing is lost.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
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

test('knowledge put saves only over the version knowledge get wrote into the file', async (t) => {
  await call(t0, 'POST', '/api/knowledge/notes?id=edited', { token: admin, body: { title: 'Edited', body: 'first' } });
  const file = join(cli.configDir, 'edited.yaml');
  const got = await cli.run(['knowledge', 'get', 'notes', 'edited', '--out', file]);
  t.is(got.code, 0, got.stderr);
  t.regex(readFileSync(file, 'utf8'), /^# sextant-version: [0-9a-f]{40}\ntitle: Edited\nbody: first\n$/);

  // Someone else saves in between: the CLI's save is refused and their change stays.
  await call(t0, 'PUT', '/api/knowledge/notes/edited', { token: admin, body: { title: 'Edited', body: 'theirs' } });
  writeFileSync(file, readFileSync(file, 'utf8').replace('body: first', 'body: mine'));
  const refused = await cli.run(['knowledge', 'put', 'notes', 'edited', file]);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /changed since you read it/);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/edited', { token: admin })).body.data.body, 'theirs');

  t.is((await cli.run(['knowledge', 'get', 'notes', 'edited', '--out', file])).code, 0);
  writeFileSync(file, readFileSync(file, 'utf8').replace('body: theirs', 'body: mine'));
  const saved = await cli.run(['knowledge', 'put', 'notes', 'edited', file]);
  t.is(saved.code, 0, saved.stderr);
  const now = await call(t0, 'GET', '/api/knowledge/notes/edited', { token: admin });
  t.is(now.body.data.body, 'mine');
  t.true(readFileSync(file, 'utf8').startsWith(`# sextant-version: ${now.body.version}\n`));
  const noVersion = join(cli.configDir, 'plain.yaml');
  writeFileSync(noVersion, 'title: Edited\nbody: plain\n');
  t.is((await cli.run(['knowledge', 'put', 'notes', 'edited', noVersion])).code, 2);
  t.is((await cli.run(['knowledge', 'put', 'notes', 'edited', noVersion, '--force'])).code, 0);
});

test('knowledge put on a production that changes only through environments says so and names the way through an environment', async (t) => {
  const orgId = t0.org(undefined, { productionThroughEnvironments: true });
  const user = t0.user({ orgId, role: 'admin' });
  const own = cliRunner(CLI_SOURCE, t0.url);
  writeFileSync(join(own.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(user, 'cli') }));
  const file = join(own.configDir, 'new.yaml');
  writeFileSync(file, 'title: New\nbody: text\n');
  const refused = await own.run(['knowledge', 'put', 'notes', 'new', file, '--force']);
  t.is(refused.code, 2);
  t.regex(refused.stderr, /only through environments/);
  t.regex(refused.stderr, /PRODUCTION_THROUGH_ENVIRONMENTS/);
  t.regex(refused.stderr, /sextant env create <name>/);
  t.notRegex(refused.stderr, /ask an admin/);
  const token = t0.session(user);
  const env = (await call(t0, 'POST', '/api/environments', { token, body: { name: 'Through', color: '#123456' } })).body.id as string;
  t.is((await call(t0, 'POST', '/api/knowledge/notes?id=new', { token, env, body: { title: 'New', body: 'first' } })).status, 201);
  const saved = await own.run(['knowledge', 'put', 'notes', 'new', file, '--force', '--env', env]);
  t.is(saved.code, 0, saved.stderr);
});
