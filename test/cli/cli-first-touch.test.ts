// A newcomer's first commands with the downloaded CLI build against a real gateway: `sextant` alone,
// a misspelt command, signing out, a wrong id, a refused value, and the list of chats.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliRunner, type CliRunner } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
let bundle: string;
let modeler: string;
let analyst: string;
test.before(async () => {
  t0 = await startTestApp();
  const res = await t0.fetch('/api/cli/download/node');
  bundle = join(t0.config.dataDir, 'sextant.mjs');
  writeFileSync(bundle, Buffer.from(await res.arrayBuffer()));
  const org = t0.org('acme');
  modeler = t0.token(t0.user({ orgId: org, role: 'modeler' }), 'cli');
  const user = t0.user({ orgId: org, role: 'user' });
  analyst = t0.token(user, 'cli');
  await seedChat(t0, principalOf(t0, user, org), 'first-chat', [{ question: 'Revenue by country?', answer: 'France leads.' }]);
});
test.after.always(() => t0.stop());

const cli = (): CliRunner => cliRunner(bundle, t0.url);

test('sextant alone prints the usage with the exit codes and exits 0', async (t) => {
  const r = await cli().run([]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^Usage: sextant/);
  t.regex(r.stdout, /Exit codes:[\s\S]*\n {2}4 {2}not signed in/);
  t.notRegex(r.stderr, /missing required argument/);
  t.regex((await cli().run(['--help'])).stdout, /Exit codes:/);
});

test('a single word close to a command is answered with the command it meant, not asked as a question', async (t) => {
  for (const [typed, meant] of [['catalg', 'catalog'], ['stauts', 'status'], ['chast', 'chats']] as const) {
    const r = await cli().run([typed, '--token', analyst]);
    t.is(r.code, 2, typed);
    t.regex(r.stderr, new RegExp(`unknown command '${typed}', did you mean ${meant}\\?`), typed);
  }
  // A word far from every command is a question (which, signed out, goes to the server and is refused there).
  const question = await cli().run(['revenue']);
  t.is(question.code, 4);
  t.notRegex(question.stderr, /unknown command/);
});

test('signed out, every command that needs the server exits 4 and says to sign in', async (t) => {
  for (const args of [['status'], ['catalog'], ['chats', 'list'], ['env', 'list']]) {
    const r = await cli().run(args);
    t.is(r.code, 4, args.join(' '));
    t.regex(r.stderr, /sextant login/, args.join(' '));
  }
  const refused = await cli().run(['catalog', '--token', 'sxt_not_a_token']);
  t.is(refused.code, 4);
});

test('an evaluation that does not exist points to sextant eval list, an environment to sextant env list', async (t) => {
  const run = await cli().run(['eval', 'results', 'no-such-run', '--token', modeler]);
  t.is(run.code, 2);
  t.regex(run.stderr, /sextant eval list/);
  t.notRegex(run.stderr, /env list/);
  const env = await cli().run(['env', 'diff', '--id', 'no-such-env', '--token', modeler]);
  t.is(env.code, 2);
  t.regex(env.stderr, /sextant env list/);
});

test('a value the server refuses is explained in words, not schema text', async (t) => {
  const r = await cli().run(['help', 'ab', '--token', analyst]);
  t.is(r.code, 2);
  t.regex(r.stderr, /q must be at least 3 characters/);
  t.notRegex(r.stderr, /query\.q|Too small|VALIDATION_FAILED/);
});

test('chats list shows dates, and --json keeps the milliseconds for programs', async (t) => {
  const human = await cli().run(['chats', 'list', '--token', analyst]);
  t.is(human.code, 0, human.stderr);
  t.regex(human.stdout, /first-chat .* \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  t.notRegex(human.stdout, /\d{13}/);
  const json = JSON.parse((await cli().run(['chats', 'list', '--json', '--token', analyst])).stdout) as { chats: { updated_at: number }[] };
  t.is(typeof json.chats[0]?.updated_at, 'number');
});
