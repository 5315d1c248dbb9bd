import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeAudit } from '../../src/auth/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliRunner, CLI_SOURCE } from '../helpers/cli.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const cli = () => cliRunner(CLI_SOURCE, t0.url);

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const member = t0.user({ orgId });
  return { orgId, admin, member, adminToken: t0.token(admin), memberToken: t0.token(member) };
}

test('sextant admin audit lists entries with --json and exports CSV to a file', async (t) => {
  const { orgId, admin, adminToken } = team();
  await writeAudit(t0.app.services.auth, { action: 'sso_provider_added', orgId, actorId: admin.id, target: { type: 'sso_provider', id: 'p1' }, ip: '10.0.0.1' });
  const runner = cli();
  const json = await runner.run(['admin', 'audit', '--action', 'sso_provider_added', '--json', '--token', adminToken]);
  t.is(json.code, 0, json.stderr);
  const body = JSON.parse(json.stdout) as { entries: { action: string; target_id: string; ip: string }[] };
  t.like(body.entries[0], { action: 'sso_provider_added', target_id: 'p1', ip: '10.0.0.1' });
  const human = await runner.run(['admin', 'audit', '--token', adminToken]);
  t.regex(human.stdout, /sso_provider_added\s+success/);
  // --actor takes the email people know, or the id.
  for (const actor of [admin.email, admin.id]) {
    const byActor = JSON.parse((await runner.run(['admin', 'audit', '--actor', actor, '--action', 'sso_provider_added', '--json', '--token', adminToken])).stdout) as { entries: unknown[] };
    t.is(byActor.entries.length, 1, actor);
  }
  t.is((JSON.parse((await runner.run(['admin', 'audit', '--actor', 'someone-else@example.com', '--json', '--token', adminToken])).stdout) as { entries: unknown[] }).entries.length, 0);
  const file = join(runner.configDir, 'audit.csv');
  const exp = await runner.run(['admin', 'audit', '--export', 'csv', '--out', file, '--token', adminToken]);
  t.is(exp.code, 0, exp.stderr);
  const csv = readFileSync(file, 'utf8');
  t.true(csv.startsWith('id,time,action'));
  t.true(csv.includes('sso_provider_added'));
});

test('an audit export cut before its end leaves no file, not even a partial one, and says so', async (t) => {
  // A server that sends the first lines, then drops the connection without the end of the response.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.write('id,time,action\r\n', () => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const runner = cli();
  const file = join(runner.configDir, 'cut.csv');
  const cut = await runner.run(['admin', 'audit', '--export', 'csv', '--out', file, '--server', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--token', team().adminToken]);
  t.is(cut.code, 2, cut.stderr);
  t.regex(cut.stderr, /cut before it ended/);
  t.deepEqual(readdirSync(runner.configDir).filter((f) => f.includes('cut.csv')), []);
});

test('sextant admin usage reports with --json, and set-limit and limits manage credit limits', async (t) => {
  const { member, adminToken } = team();
  const runner = cli();
  const usage = await runner.run(['admin', 'usage', '--json', '--token', adminToken]);
  t.is(usage.code, 0, usage.stderr);
  t.deepEqual((JSON.parse(usage.stdout) as { days: unknown[] }).days, []);
  t.is((await runner.run(['admin', 'usage', 'set-limit', '100', '--token', adminToken])).code, 0);
  t.is((await runner.run(['admin', 'usage', 'set-limit', '5', '--member', member.id, '--token', adminToken])).code, 0);
  const limits = await runner.run(['admin', 'usage', 'limits', '--json', '--token', adminToken]);
  t.deepEqual((JSON.parse(limits.stdout) as { limits: { user_id: string | null; monthly_credits: number }[] }).limits.map((l) => [l.user_id, l.monthly_credits]).sort(), [[member.id, 5], [null, 100]].sort());
  t.is((await runner.run(['admin', 'usage', 'set-limit', 'lots', '--token', adminToken])).code, 2);
});

test('for a member the admin commands fail with a clear error', async (t) => {
  const { memberToken } = team();
  for (const args of [['admin', 'audit'], ['admin', 'usage'], ['admin', 'audit', '--export', 'jsonl']]) {
    const r = await cli().run([...args, '--token', memberToken]);
    t.not(r.code, 0, args.join(' '));
    t.regex(r.stderr, /role does not allow this/, args.join(' '));
  }
});
