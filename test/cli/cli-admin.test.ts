// `sextant admin members | invite | role | deactivate` against a real gateway (issue 23): human and
// --json output, members named by email, and a clear error for people who are not admins.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliRunner, type CliRunner, CLI_SOURCE } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { UserRow } from '../../src/auth/index.ts';

let t0: TestApp;
let cli: CliRunner;
let member: UserRow;
let orgId: string;
const entry = CLI_SOURCE;

test.before(async () => {
  t0 = await startTestApp();
  orgId = t0.org('cli-admins');
  const admin = t0.user({ orgId, role: 'admin', email: 'boss@cli-admin.test' });
  member = t0.user({ orgId, email: 'worker@cli-admin.test' });
  cli = cliRunner(entry, t0.url);
  writeFileSync(join(cli.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(admin, 'cli') }));
});
test.after.always(() => t0.stop());

test.serial('admin members lists the organization as a table and as JSON', async (t) => {
  const human = await cli.run(['admin', 'members']);
  t.is(human.code, 0, human.stderr);
  t.regex(human.stdout, /email\s+name\s+role\s+status/);
  t.regex(human.stdout, /worker@cli-admin\.test\s+worker\s+user\s+active/);
  const json = await cli.run(['admin', 'members', '--search', 'worker', '--json']);
  t.is(json.code, 0, json.stderr);
  const body = JSON.parse(json.stdout) as { members: { email: string }[]; next_cursor: null };
  t.deepEqual(body.members.map((m) => m.email), ['worker@cli-admin.test']);
});

test.serial('admin invite mails an invitation with the role', async (t) => {
  const res = await cli.run(['admin', 'invite', 'newbie@cli-admin.test', '--role', 'modeler', '--json']);
  t.is(res.code, 0, res.stderr);
  t.like(JSON.parse(res.stdout), { email: 'newbie@cli-admin.test', role: 'modeler' });
  const human = await cli.run(['admin', 'invite', 'second@cli-admin.test']);
  t.regex(human.stdout, /Invited second@cli-admin\.test as user/);
  const bad = await cli.run(['admin', 'invite', 'x@cli-admin.test', '--role', 'owner']);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /role must be one of user, modeler, admin/);
});

test.serial('admin role changes a member named by email; the last admin is refused with the reason', async (t) => {
  const res = await cli.run(['admin', 'role', member.email, 'modeler', '--can-merge', '--json']);
  t.is(res.code, 0, res.stderr);
  t.like(JSON.parse(res.stdout), { role: 'modeler', can_merge: true });
  const last = await cli.run(['admin', 'role', 'boss@cli-admin.test', 'user']);
  t.is(last.code, 2);
  t.regex(last.stderr, /last active admin.*LAST_ADMIN/);
  t.regex((await cli.run(['admin', 'role', 'ghost@cli-admin.test', 'user'])).stderr, /No member with the address ghost@cli-admin\.test/);
});

test.serial("admin deactivate stops the member's token at once; --reactivate undoes it", async (t) => {
  const token = t0.token(member, 'cli');
  const me = () => t0.fetch('/api/auth/me', { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
  t.is(await me(), 200);
  const res = await cli.run(['admin', 'deactivate', member.id]);
  t.is(res.code, 0, res.stderr);
  t.regex(res.stdout, /is deactivated/);
  t.is(await me(), 401);
  const back = await cli.run(['admin', 'deactivate', member.email, '--reactivate', '--json']);
  t.is(back.code, 0, back.stderr);
  t.is((JSON.parse(back.stdout) as { status: string }).status, 'active');
});

test.serial('a member who is not an admin gets a clear error from every admin command', async (t) => {
  const plain = cliRunner(entry, t0.url);
  writeFileSync(join(plain.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(t0.user({ orgId }), 'cli') }));
  for (const args of [['admin', 'members'], ['admin', 'invite', 'a@b.test'], ['admin', 'role', member.id, 'admin'], ['admin', 'deactivate', member.id]]) {
    const res = await plain.run(args);
    t.is(res.code, 2, args.join(' '));
    t.regex(res.stderr, /for admins of the organization/, args.join(' '));
  }
});
