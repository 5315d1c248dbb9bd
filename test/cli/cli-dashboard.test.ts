// `sextant dashboard list|open`: the dashboards the caller sees, as a table or JSON, and one opened
// in the browser (a stand-in `xdg-open` on PATH records what it was asked to open).
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../helpers/api.ts';
import { cliRunner, type CliRunner, CLI_SOURCE } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let cli: CliRunner;
let dashboardId: string;
let privateId: string;

test.before(async () => {
  t0 = await startTestApp();
  const org = t0.org('cli-db');
  const modeler = t0.user({ orgId: org, role: 'modeler' });
  const analyst = t0.user({ orgId: org, role: 'user' });
  const made = await call(t0, 'POST', '/api/dashboards', { token: t0.session(modeler), body: { title: 'Weekly sales', visibility: 'organization', tiles: [{ text: 'Hello', x: 0, y: 0, w: 12, h: 2 }] } });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  dashboardId = made.body.id;
  privateId = (await call(t0, 'POST', '/api/dashboards', { token: t0.session(modeler), body: { title: 'Mine', tiles: [] } })).body.id;
  cli = cliRunner(CLI_SOURCE, t0.url);
  writeFileSync(join(cli.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(analyst, 'cli') }));
});
test.after.always(() => t0.stop());

test("dashboard list shows the organization's dashboards, as a table or JSON", async (t) => {
  const human = await cli.run(['dashboard', 'list']);
  t.is(human.code, 0, human.stderr);
  t.regex(human.stdout, new RegExp(`${dashboardId}\\s+Weekly sales\\s+organization\\s+1`));
  t.notRegex(human.stdout, /Mine/, "another user's private dashboard");
  const json = await cli.run(['dashboard', 'list', '--json']);
  t.deepEqual((JSON.parse(json.stdout) as { dashboards: { id: string }[] }).dashboards.map((d) => d.id), [dashboardId]);
  const searched = await cli.run(['dashboard', 'list', 'WEEKLY', '--json']);
  t.deepEqual((JSON.parse(searched.stdout) as { dashboards: { id: string }[] }).dashboards.map((d) => d.id), [dashboardId], 'its title holds the words, in another case');
  const none = await cli.run(['dashboard', 'list', 'no', 'such', 'board']);
  t.is(none.code, 0, none.stderr);
  t.is(none.stdout.trim(), 'No dashboard matches "no such board".');
});

test('dashboard open opens the browser at the dashboard and prints its URL; a missing one exits 2', async (t) => {
  const bin = join(cli.configDir, 'bin');
  mkdirSync(bin, { recursive: true });
  const opened = join(cli.configDir, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  const env = { PATH: `${bin}:${process.env['PATH']}`, SEXTANT_NO_BROWSER: undefined };
  const res = await cli.run(['dashboard', 'open', dashboardId], env);
  t.is(res.code, 0, res.stderr);
  const url = `${t0.url}/dashboards/${dashboardId}`;
  t.is(res.stdout.trim(), `Weekly sales: ${url}`);
  for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 20)); // the detached opener runs on its own
  t.is(readFileSync(opened, 'utf8'), url);
  const json = await cli.run(['dashboard', 'open', dashboardId, '--json']);
  t.deepEqual(JSON.parse(json.stdout), { id: dashboardId, title: 'Weekly sales', url });
  for (const id of ['db_missing', privateId]) {
    const missing = await cli.run(['dashboard', 'open', id]);
    t.is(missing.code, 2);
    t.regex(missing.stderr, /not found/i);
  }
});
