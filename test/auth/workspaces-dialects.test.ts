// Workspaces and the domain lookup give the same answers on SQLite and PostgreSQL: a member sees the
// workspaces of their base organization they belong to, never another organization's; the default
// workspace is one they belong to, and switching starts a session only in one of them; an email
// domain names its organization and enabled SSO logins.
import { sql } from 'kysely';
import { orgFromEmail } from '../../src/auth/account/org-from-email.ts';
import { listWorkspaces, setDefaultWorkspace, switchToBaseOrg, switchToWorkspace } from '../../src/auth/account/workspaces.ts';
import { verifyJwt } from '../../src/auth/credentials/jwt.ts';
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { AppError } from '../../src/errors.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';

const ada = { userId: 'ada', orgId: 'base', baseOrgId: 'base', credential: 'session' } as Principal;
const codeOf = (err: unknown) => (err instanceof AppError ? err.code : String(err));

/** base with workspaces w-b and w-a (ada in both) and w-c (ada not in it); other with workspace w-x. */
async function seed(x: Executor): Promise<void> {
  for (const [id, name, base] of [['base', 'Base', null], ['w-b', 'Beta', 'base'], ['w-a', 'Alpha', 'base'], ['w-c', 'Gamma', 'base'], ['other', 'Other', null], ['w-x', 'X', 'other']] as const) {
    await x.run(sql`INSERT INTO organizations (id, name, base_org_id, created_at) VALUES (${id}, ${name}, ${base}, 0)`);
  }
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('ada', 'ada@base.example', 0)`);
  for (const [org, role] of [['base', 'admin'], ['w-b', 'user'], ['w-a', 'modeler'], ['w-x', 'user']] as const) {
    await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('ada', ${org}, ${role}, 0)`);
  }
}

dialectTest('a member lists the workspaces of their base organization they belong to, by name', async (t, { x }) => {
  await seed(x);
  t.deepEqual(await listWorkspaces({ store: x }, ada), {
    base_org: { org_id: 'base', name: 'Base', role: 'admin' },
    workspaces: [{ org_id: 'w-a', name: 'Alpha', role: 'modeler' }, { org_id: 'w-b', name: 'Beta', role: 'user' }],
    current_org_id: 'base',
    default_workspace_id: null,
  });
});

dialectTest(
  'workspaces are listed by the bytes of their names whatever the collation of the database',
  async (t, { x }) => {
    await seed(x);
    for (const [id, name] of [['w-1', 'beta'], ['w-2', 'Zeta'], ['w-3', 'alpha']] as const) {
      await x.run(sql`INSERT INTO organizations (id, name, base_org_id, created_at) VALUES (${id}, ${name}, 'base', 0)`);
      await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('ada', ${id}, 'user', 0)`);
    }
    t.deepEqual((await listWorkspaces({ store: x }, ada)).workspaces.map((w) => w.name), ['Alpha', 'Beta', 'Zeta', 'alpha', 'beta']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest("the default workspace is one of the member's, never another organization's", async (t, { x }) => {
  await seed(x);
  await setDefaultWorkspace({ store: x }, ada, 'w-a');
  t.is((await listWorkspaces({ store: x }, ada)).default_workspace_id, 'w-a');
  for (const id of ['w-c', 'w-x', 'nope']) t.is(codeOf(await setDefaultWorkspace({ store: x }, ada, id).catch((e: unknown) => e)), 'WORKSPACE_NOT_FOUND', id);
  await setDefaultWorkspace({ store: x }, ada, null);
  t.is((await listWorkspaces({ store: x }, ada)).default_workspace_id, null);
});

dialectTest('an email domain names its organization and its enabled SSO logins, whatever the case', async (t, { x }) => {
  await seed(x);
  await x.run(sql`INSERT INTO org_email_domains (domain, org_id) VALUES ('base.example', 'base')`);
  await x.run(sql`INSERT INTO sso_configs (org_id, type, name, issuer, client_id, enabled, created_at) VALUES ('base', 'okta', 'Okta', 'https://idp', 'c', 1, 0)`);
  await x.run(sql`INSERT INTO sso_configs (org_id, type, name, issuer, client_id, enabled, created_at) VALUES ('base', 'old', '', 'https://idp', 'c', 0, 0)`);
  const found = await orgFromEmail({ store: x }, 'https://sextant.example', ' Someone@BASE.example ');
  t.like(found, { org_id: 'base', org_name: 'Base', methods: ['password', 'magic_link', 'sso:okta'] });
  t.is(found.sso.length, 1);
  t.like(await orgFromEmail({ store: x }, 'https://sextant.example', 'a@unknown.example'), { org_id: null, sso: [] });
});

dialectTest("switching starts a session in a workspace the member belongs to, or back in the base; never another organization's", async (t, { x }) => {
  await seed(x);
  const deps = { store: x, clock: new FakeClock(), jwtKey: 'k'.repeat(32) };
  const switched = await switchToWorkspace(deps, ada, 'w-a');
  t.is(switched.orgId, 'w-a');
  t.like(verifyJwt(deps.jwtKey, deps.clock, 'session', switched.token), { sub: 'ada', org: 'w-a', sid: switched.sessionId });
  t.like(await x.one(sql<{ org_id: string; ended_at: number | null }>`SELECT org_id, ended_at FROM sessions WHERE id = ${switched.sessionId}`), { org_id: 'w-a', ended_at: null });
  for (const id of ['w-c', 'w-x', 'other']) t.is(codeOf(await switchToWorkspace(deps, ada, id).catch((e: unknown) => e)), 'WORKSPACE_NOT_FOUND', id);
  t.is((await switchToBaseOrg(deps, { ...ada, orgId: 'w-a' })).orgId, 'base');
  t.is(codeOf(await switchToWorkspace(deps, { ...ada, credential: 'api_token' }, 'w-a').catch((e: unknown) => e)), 'SESSION_REQUIRED');
});
