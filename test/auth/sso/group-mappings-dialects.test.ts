// SSO group mappings set roles on both dialects, and never take an organization's last active admin
// away: on PostgreSQL, where `other` is a second pool standing for a second replica, two sign-ins
// demoting the last two admins at once leave one admin.
import { sql } from 'kysely';
import { applyGroupMappings } from '../../../src/auth/sso/group-mappings.ts';
import type { SsoProviderRow } from '../../../src/auth/sso/provider-store.ts';
import type { AuthStore } from '../../../src/auth/single-use-tables.ts';
import type { Executor } from '../../../src/store/index.ts';
import { dialectTest } from '../../helpers/executors.ts';

const provider = (orgId: string): SsoProviderRow => ({
  id: `p-${orgId}`, org_id: orgId, type: 'okta', name: 'Okta', issuer: 'https://okta.example', client_id: 'c', client_secret: null,
  scopes: 'openid', email_claim: 'email', groups_claim: 'groups', jit_provisioning: 1, default_role: 'user',
  group_mappings: JSON.stringify([{ group: 'staff', role: 'user' }, { group: 'leads', role: 'admin' }]), enabled: 1, created_at: 0, updated_at: null,
});

async function seedOrg(x: Executor, orgId: string, admins: string[]): Promise<void> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${orgId}, ${orgId}, 0)`);
  for (const id of admins) {
    await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES (${id}, ${`${id}@${orgId}.test`}, ${id}, 0)`);
    await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (${id}, ${orgId}, 'admin', 0)`);
  }
}

const signIn = (x: Executor, orgId: string, userId: string, groups: string[]): Promise<void> =>
  applyGroupMappings({ store: x as AuthStore, ssoGroups: undefined }, provider(orgId), userId, { sub: userId, groups });

async function roles(x: Executor, orgId: string): Promise<Record<string, string>> {
  const rows = await x.all(sql<{ user_id: string; role: string }>`SELECT user_id, role FROM memberships WHERE org_id = ${orgId} ORDER BY user_id`);
  return Object.fromEntries(rows.map((r) => [r.user_id, r.role]));
}

dialectTest('two SSO sign-ins demoting the last two admins at once leave one admin', async (t, { x, other }) => {
  for (let trial = 0; trial < 10; trial++) {
    const org = `org${trial}`;
    await seedOrg(x, org, [`a${trial}`, `b${trial}`]);
    await Promise.all([signIn(x, org, `a${trial}`, ['staff']), signIn(other, org, `b${trial}`, ['staff'])]);
    const after = Object.values(await roles(x, org));
    t.is(after.filter((r) => r === 'admin').length, 1, `trial ${trial}`);
    t.is(after.filter((r) => r === 'user').length, 1, `trial ${trial}`);
  }
});

dialectTest('a mapping demotes an admin while another active admin remains, and promotes by the strongest group', async (t, { x }) => {
  await seedOrg(x, 'acme', ['ann', 'bob']);
  await signIn(x, 'acme', 'ann', ['staff']);
  t.deepEqual(await roles(x, 'acme'), { ann: 'user', bob: 'admin' });
  await signIn(x, 'acme', 'ann', ['staff', 'leads']);
  t.deepEqual(await roles(x, 'acme'), { ann: 'admin', bob: 'admin' });
});

dialectTest('the last active admin keeps the role: a disabled admin does not count as another', async (t, { x }) => {
  await seedOrg(x, 'acme', ['ann', 'bob']);
  await x.run(sql`UPDATE users SET disabled_at = 1 WHERE id = 'bob'`);
  await signIn(x, 'acme', 'ann', ['staff']);
  t.deepEqual(await roles(x, 'acme'), { ann: 'admin', bob: 'admin' });
});

dialectTest("a mapping changes only the signing-in member's row in the provider's organization", async (t, { x }) => {
  await seedOrg(x, 'acme', ['ann', 'bob']);
  await seedOrg(x, 'zeta', ['zed', 'zoe']);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('ann', 'zeta', 'admin', 0)`);
  await signIn(x, 'acme', 'ann', ['staff']);
  t.deepEqual(await roles(x, 'acme'), { ann: 'user', bob: 'admin' });
  t.deepEqual(await roles(x, 'zeta'), { ann: 'admin', zed: 'admin', zoe: 'admin' });
});
