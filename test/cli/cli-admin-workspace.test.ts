// `sextant admin workspace ...` against a real gateway (issue 35): an admin creates, renames and
// removes workspaces and chooses their members, named by name or id and by email; human and --json
// output; a clear error for people who are not admins and for a removal without --confirm.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../helpers/api.ts';
import { cliRunner, type CliRunner, CLI_SOURCE } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let cli: CliRunner;
let adminToken: string;
const entry = CLI_SOURCE;

test.before(async () => {
  t0 = await startTestApp();
  const orgId = t0.org('cli-workspaces');
  const admin = t0.user({ orgId, role: 'admin', email: 'boss@cli-ws.test' });
  t0.user({ orgId, email: 'worker@cli-ws.test' });
  adminToken = t0.session(admin);
  cli = cliRunner(entry, t0.url);
  writeFileSync(join(cli.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(admin, 'cli') }));
});
test.after.always(() => t0.stop());

const ok = async (t: import('ava').ExecutionContext, args: string[]) => {
  const res = await cli.run(args);
  t.is(res.code, 0, res.stderr);
  return res.stdout;
};

test.serial('an admin creates, lists, fills, renames and removes a workspace', async (t) => {
  t.regex(await ok(t, ['admin', 'workspace', 'list']), /No workspaces/);
  const created = JSON.parse(await ok(t, ['admin', 'workspace', 'create', 'Finance', '--json'])) as { workspace_id: string; name: string };
  t.is(created.name, 'Finance');
  t.regex(await ok(t, ['admin', 'workspace', 'add', 'finance', 'worker@cli-ws.test', '--role', 'modeler']), /worker@cli-ws\.test is modeler in Finance/);
  t.regex(await ok(t, ['admin', 'workspace', 'members', created.workspace_id]), /worker@cli-ws\.test\s+worker\s+modeler/);
  t.regex(await ok(t, ['admin', 'workspace', 'list']), /Finance\s+2\s/);
  t.regex(await ok(t, ['admin', 'workspace', 'rename', 'Finance', 'Finance EMEA']), /Renamed workspace .* to Finance EMEA/);
  t.regex(await ok(t, ['admin', 'workspace', 'take-out', 'Finance EMEA', 'worker@cli-ws.test']), /Took worker@cli-ws\.test out of Finance EMEA/);
  const members = (await call(t0, 'GET', `/api/admin/workspaces/${created.workspace_id}/members`, { token: adminToken })).body.members as { email: string }[];
  t.deepEqual(members.map((m) => m.email), ['boss@cli-ws.test']);

  const unconfirmed = await cli.run(['admin', 'workspace', 'remove', 'Finance EMEA']);
  t.is(unconfirmed.code, 2);
  t.regex(unconfirmed.stderr, /--confirm/);
  t.regex(await ok(t, ['admin', 'workspace', 'remove', 'Finance EMEA', '--confirm']), /Removed workspace Finance EMEA/);
  t.deepEqual((await call(t0, 'GET', '/api/admin/workspaces', { token: adminToken })).body.workspaces, []);
});

test.serial('a taken name, an unknown workspace and a non-admin get clear errors', async (t) => {
  await ok(t, ['admin', 'workspace', 'create', 'Sales']);
  const taken = await cli.run(['admin', 'workspace', 'create', 'SALES']);
  t.is(taken.code, 2);
  t.regex(taken.stderr, /WORKSPACE_NAME_TAKEN/);
  const unknown = await cli.run(['admin', 'workspace', 'members', 'Nowhere']);
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /No workspace Nowhere/);
  const user = t0.user({ orgId: 'cli-workspaces', email: 'plain@cli-ws.test' });
  const plain = cliRunner(entry, t0.url);
  writeFileSync(join(plain.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(user, 'cli') }));
  const refused = await plain.run(['admin', 'workspace', 'list']);
  t.is(refused.code, 2);
  t.regex(refused.stderr, /for admins of the organization/);
});
