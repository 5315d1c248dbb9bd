// `sextant eval ...` with the downloaded CLI build against a real gateway (scripted model): offline
// init and validate, create, list, run with its CI exit codes and JUnit report, results, compare, cancel.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../helpers/api.ts';
import { cliRunner, type CliRunner } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedProvider } from '../helpers/scripted-provider.ts';

const model = scriptedProvider((question) => (/gadgets/.test(question) ? 'There are 42 gadgets.' : /widgets/.test(question) ? 'We have **5,000** widgets.' : 'Which do you mean?'));

let t0: TestApp;
let bundle: string;
let modeler: string;
let analyst: string;
let adminSession: string;

test.before(async () => {
  t0 = await startTestApp({}, { llmProvider: model });
  const res = await t0.fetch('/api/cli/download/node');
  bundle = join(t0.config.dataDir, 'sextant.mjs');
  writeFileSync(bundle, Buffer.from(await res.arrayBuffer()));
  const org = t0.org('acme');
  modeler = t0.token(t0.user({ orgId: org, role: 'modeler', permissions: ['merge_to_production'] }), 'cli');
  analyst = t0.token(t0.user({ orgId: org, role: 'user' }), 'cli');
  adminSession = t0.session(t0.user({ orgId: org, role: 'admin' }));
});
test.after.always(() => t0.stop());

const cli = (): CliRunner => cliRunner(bundle, t0.url);
const suiteYaml = (widgets: number | string) => `id: shop
name: Shop questions
questions:
  - id: gadgets
    question: How many gadgets are there?
    expected_answer: 42
  - id: widgets
    question: How many widgets do we have?
    expected_answer: ${widgets}
    answer_type: count
`;

test('every eval command has --help', async (t) => {
  const runner = cli();
  for (const sub of ['', 'init', 'validate', 'create', 'list', 'run', 'results', 'compare', 'cancel']) {
    const r = await runner.run(['eval', ...(sub ? [sub] : []), '--help']);
    t.is(r.code, 0, sub);
    t.regex(r.stdout, /Usage: sextant eval/);
  }
});

test('init writes a suite that validate accepts offline, without a server or a token', async (t) => {
  const runner = cli();
  const offline = { SEXTANT_SERVER: 'http://127.0.0.1:9' };
  const init = await runner.run(['eval', 'init', 'kpis.yaml'], offline);
  t.is(init.code, 0, init.stderr);
  t.regex(readFileSync(join(runner.configDir, 'kpis.yaml'), 'utf8'), /^id: kpis$/m);
  t.is((await runner.run(['eval', 'init', 'kpis.yaml'], offline)).code, 2, 'no overwrite without --force');
  const ok = await runner.run(['eval', 'validate', 'kpis.yaml'], offline);
  t.is(ok.code, 0, ok.stdout + ok.stderr);
  t.regex(ok.stdout, /valid, 3 question/);
});

test('validate exits 1 naming every field that breaks the format', async (t) => {
  const runner = cli();
  writeFileSync(
    join(runner.configDir, 'bad.yaml'),
    'id: bad\nname: Bad\nquestions:\n  - id: a\n    question: How many?\n    expected_answer: quite a lot\n  - id: a\n    question: Again?\n    expected_answer: 3\n    tolerence_pct: 5\n',
  );
  const r = await runner.run(['eval', 'validate', 'bad.yaml']);
  t.is(r.code, 1);
  t.regex(r.stdout, /questions\.0\.expected_answer: /);
  t.regex(r.stdout, /questions\.1\.tolerence_pct: unknown field/);
  t.regex(r.stdout, /questions\.1\.id: duplicate question id a/);
  const json = await runner.run(['--json', 'eval', 'validate', 'bad.yaml']);
  t.false(JSON.parse(json.stdout).valid);
});

test.serial('run exits 0 when every question passes, writes a JUnit report, and prints JSON with --json', async (t) => {
  const runner = cli();
  writeFileSync(join(runner.configDir, 'shop.yaml'), suiteYaml(5000));
  const created = await runner.run(['eval', 'create', 'shop.yaml'], { SEXTANT_TOKEN: modeler });
  t.is(created.code, 0, created.stderr);
  const listed = await runner.run(['eval', 'list'], { SEXTANT_TOKEN: modeler });
  t.regex(listed.stdout, /shop\s+Shop questions\s+2/);
  const r = await runner.run(['eval', 'run', 'shop', '--junit', 'report.xml'], { SEXTANT_TOKEN: modeler, GITHUB_ACTIONS: 'true', GITHUB_SHA: 'abc123' });
  t.is(r.code, 0, r.stdout + r.stderr);
  t.regex(r.stdout, /shop on production @ [0-9a-f]{10} \(run evr_[\w-]+\): PASS/);
  t.regex(r.stdout, /Gate: passed/);
  // Not a terminal (a CI log): progress comes in whole lines, never redrawn with a carriage return.
  t.notRegex(r.stderr, /\r/);
  t.regex(r.stderr, /^Running shop on production \(run evr_[\w-]+\)\n/);
  const xml = readFileSync(join(runner.configDir, 'report.xml'), 'utf8');
  t.regex(xml, /<testsuites name="sextant evaluations" tests="2" failures="0" errors="0">/);
  t.regex(xml, /<testcase classname="shop" name="widgets: How many widgets do we have\?"><\/testcase>/);
  const json = await runner.run(['--json', 'eval', 'run', 'shop'], { SEXTANT_TOKEN: modeler });
  const out = JSON.parse(json.stdout);
  t.like(out, { run: { verdict: 'pass', summary: { pass: 2 } }, gate: { passed: true, pass_rate: 100 } });
  const run = await call(t0, 'GET', `/api/evaluation_runs/${out.run.id}`, { token: adminSession });
  t.is(run.body.trigger, 'cli');
  const first = await call(t0, 'GET', '/api/evaluations/shop/runs?limit=100', { token: adminSession });
  t.like(first.body.runs.at(-1), { metadata: { ci: 'github', sha: 'abc123' } });
});

test.serial('run of a file updates the suite, fails the gate with exit 1, and --min-pass-rate and --baseline move the gate', async (t) => {
  const runner = cli();
  const passing = JSON.parse((await runner.run(['--json', 'eval', 'run', 'shop'], { SEXTANT_TOKEN: modeler })).stdout).run.id as string;
  writeFileSync(join(runner.configDir, 'shop.yaml'), suiteYaml(6000));
  const failed = await runner.run(['eval', 'run', 'shop.yaml', '--junit', 'report.xml'], { SEXTANT_TOKEN: modeler });
  t.is(failed.code, 1, failed.stdout + failed.stderr);
  t.regex(failed.stderr, /Updated evaluations\/shop\.yaml from shop\.yaml/);
  t.regex(failed.stdout, /✘ fail\s+widgets\s+6000\s+5000\s+16\.6666\d*%/);
  t.regex(failed.stdout, /Gate: failed: pass rate 50% is below 100%/);
  t.regex(readFileSync(join(runner.configDir, 'report.xml'), 'utf8'), /<failure message="expected 6000, observed 5000 \(16\.6666\d*% off\)" type="wrong_answer">We have \*\*5,000\*\* widgets\.<\/failure>/);
  t.is((await runner.run(['eval', 'run', 'shop', '--min-pass-rate', '50'], { SEXTANT_TOKEN: modeler })).code, 0);
  const regressed = await runner.run(['eval', 'run', 'shop', '--min-pass-rate', '50', '--baseline', passing], { SEXTANT_TOKEN: modeler });
  t.is(regressed.code, 1);
  t.regex(regressed.stdout, /1 question\(s\) regressed against the baseline/);
  const runId = /\(run (evr_[\w-]+)\)/.exec(regressed.stdout)![1]!;
  const compared = await runner.run(['eval', 'compare', passing, runId], { SEXTANT_TOKEN: modeler });
  t.is(compared.code, 1);
  t.regex(compared.stdout, /regressed\s+widgets\s+6000\s+5000\s+5000/);
  const results = await runner.run(['eval', 'results', runId], { SEXTANT_TOKEN: modeler });
  t.is(results.code, 0);
  t.regex(results.stdout, /shop \(completed\): FAIL/);
  const cancel = await runner.run(['eval', 'cancel', runId], { SEXTANT_TOKEN: modeler });
  t.is(cancel.code, 2);
  t.regex(cancel.stderr, /EVALUATION_RUN_FINISHED/);
  writeFileSync(join(runner.configDir, 'shop.yaml'), suiteYaml(5000));
  t.is((await runner.run(['eval', 'run', 'shop.yaml'], { SEXTANT_TOKEN: modeler })).code, 0);
});

test.serial('run refuses a moved target, bad options, and users without the role', async (t) => {
  const runner = cli();
  const moved = await runner.run(['eval', 'run', 'shop', '--expect-commit', '0'.repeat(40)], { SEXTANT_TOKEN: modeler });
  t.is(moved.code, 2);
  t.regex(moved.stderr, /TARGET_MOVED/);
  t.is((await runner.run(['eval', 'run', 'shop', '--min-pass-rate', '120'], { SEXTANT_TOKEN: modeler })).code, 2);
  const denied = await runner.run(['eval', 'list'], { SEXTANT_TOKEN: analyst });
  t.is(denied.code, 2);
  t.regex(denied.stderr, /HTTP 403/);
});
