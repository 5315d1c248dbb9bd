import test from 'ava';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliRunner, type CliRunner } from '../helpers/cli.ts';
import { browser, formField } from '../helpers/cookie-jar.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let bundle: string;
test.before(async () => {
  t0 = await startTestApp();
  const res = await t0.fetch('/api/cli/download/node');
  bundle = join(t0.config.dataDir, 'sextant.mjs');
  writeFileSync(bundle, Buffer.from(await res.arrayBuffer()));
});
test.after.always(() => t0.stop());

const cli = (): CliRunner => cliRunner(bundle, t0.url);
const pkgVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

test('the downloaded CLI build runs --version', async (t) => {
  const r = await cli().run(['--version']);
  t.is(r.code, 0);
  t.is(r.stdout.trim(), pkgVersion);
});

test('bin/sextant.js runs the CLI from the sources', async (t) => {
  const r = await cliRunner(new URL('../../bin/sextant.js', import.meta.url).pathname, t0.url).run(['--version']);
  t.is(r.code, 0);
  t.is(r.stdout.trim(), pkgVersion);
});

test('every command has --help', async (t) => {
  const runner = cli();
  for (const args of [[], ['ask'], ['login'], ['status'], ['chats'], ['chats', 'list'], ['env'], ['env', 'merge'], ['env', 'target', 'set'], ['help']]) {
    const r = await runner.run([...args, '--help']);
    t.is(r.code, 0, args.join(' '));
    t.regex(r.stdout, /Usage: sextant/);
  }
});

test('a usage error exits 2 and an unreachable server exits 2 with what to do', async (t) => {
  t.is((await cli().run(['env', 'target', 'set'])).code, 2);
  const r = await cli().run(['status', '--token', 'x'], { SEXTANT_SERVER: 'http://127.0.0.1:9' });
  t.is(r.code, 2);
  t.regex(r.stderr, /Cannot reach .*--server/);
});

test('status without a token exits 4 (signed out) and says to sign in', async (t) => {
  const r = await cli().run(['status']);
  t.is(r.code, 4);
  t.regex(r.stderr, /sextant login/);
});

test('login through the device flow, approved on the approval page, saves a token readable only by its owner', async (t) => {
  const user = t0.user({ role: 'modeler' });
  const runner = cli();
  const { done, stderrSoFar } = runner.start(['login'], { SEXTANT_POLL_MS: '20' });
  let url: string | undefined;
  while (!(url = /Open (\S+)/.exec(stderrSoFar())?.[1])) await new Promise((r) => setTimeout(r, 20));
  const userCode = /the code (\S+)\./.exec(stderrSoFar())?.[1];
  const page = browser(t0.url);
  page.setCookie('sextant_session', t0.session(user));
  const path = url.slice(t0.url.length);
  const html = await (await page.fetch(path)).text();
  t.true(html.includes(userCode!));
  const res = await page.submit('/cli/authorize/approve', { code: formField(html, 'code')!, csrf: formField(html, 'csrf')! });
  t.true(res.status < 400);
  const r = await done;
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, new RegExp(`Signed in .* as ${user.email}`));
  const file = join(runner.configDir, 'config.json');
  t.is(statSync(file).mode & 0o777, 0o600);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { token: string; server: string };
  t.regex(saved.token, /^sxt_cli_/);
  const status = await runner.run(['status', '--json']);
  t.is(status.code, 0, status.stderr);
});

test('login --token works headless and logout forgets the token', async (t) => {
  const user = t0.user();
  const runner = cli();
  const r = await runner.run(['login', '--token', t0.token(user, 'cli'), '--json']);
  t.is(r.code, 0, r.stderr);
  t.like(JSON.parse(r.stdout), { signed_in: true });
  t.regex(readFileSync(join(runner.configDir, 'config.json'), 'utf8'), /sxt_cli_/);
  t.is((await runner.run(['logout'])).code, 0);
  t.notRegex(readFileSync(join(runner.configDir, 'config.json'), 'utf8'), /sxt_cli_/);
});

test('the environment comes from --env, then SERVICE_ENV (empty forces production), then the saved one', async (t) => {
  const runner = cli();
  writeFileSync(join(runner.configDir, 'config.json'), JSON.stringify({ environment: 'saved-env' }));
  const current = async (args: string[], env: Record<string, string | undefined> = {}) =>
    JSON.parse((await runner.run(['env', 'current', '--json', ...args], env)).stdout) as { environment: string | null; source: string };
  t.deepEqual(await current([]), { environment: 'saved-env', source: 'saved' });
  t.deepEqual(await current([], { SERVICE_ENV: 'from-var' }), { environment: 'from-var', source: 'SERVICE_ENV' });
  t.deepEqual(await current([], { SERVICE_ENV: '' }), { environment: null, source: 'SERVICE_ENV' });
  t.deepEqual(await current(['--env', 'from-flag'], { SERVICE_ENV: 'from-var' }), { environment: 'from-flag', source: 'flag' });
});

test('help without a question prints the usage', async (t) => {
  const r = await cli().run(['help']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^Usage: sextant/);
  t.regex(r.stdout, /catalog/);
  t.regex(r.stdout, /env/);
});

test('help answers from the product documentation and refuses questions outside 3 to 500 characters', async (t) => {
  const user = t0.user();
  const runner = cli();
  const r = await runner.run(['help', 'how do I configure the data directory', '--token', t0.token(user)]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /SEXTANT_DATA_DIR/);
  const short = await runner.run(['help', 'ab', '--token', t0.token(user)]);
  t.is(short.code, 2);
  t.regex(short.stderr, /422/);
});
