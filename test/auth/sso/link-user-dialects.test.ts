// Linking an SSO sign-in to an account on both dialects: a concurrent first sign-in of one new person
// through two pools (two replicas, on PostgreSQL) creates one user with one membership and one link,
// and neither sign-in ever takes over an account of the address that is not a member.
import { sql } from 'kysely';
import { linkUser } from '../../../src/auth/sso/link-user.ts';
import type { SsoProviderRow } from '../../../src/auth/sso/provider-store.ts';
import { FakeClock } from '../../../src/clock.ts';
import type { Executor } from '../../../src/store/index.ts';
import { dialectTest } from '../../helpers/executors.ts';

const provider = (orgId: string, jit = 1): SsoProviderRow => ({
  id: `p-${orgId}`, org_id: orgId, type: 'okta', name: 'Okta', issuer: 'https://okta.example', client_id: 'c', client_secret: null,
  scopes: 'openid', email_claim: 'email', groups_claim: null, jit_provisioning: jit, default_role: 'user',
  group_mappings: '[]', enabled: 1, created_at: 0, updated_at: null,
});
const claims = (sub: string, email: string) => ({ sub, email, email_verified: true, name: 'New Person' });
const clock = new FakeClock();

async function seedOrg(x: Executor, orgId: string): Promise<void> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${orgId}, ${orgId}, 0)`);
}

async function count(x: Executor, table: 'users' | 'memberships' | 'sso_identities'): Promise<number> {
  return (await x.all(sql`SELECT 1 AS one FROM ${sql.table(table)}`)).length;
}

dialectTest('a concurrent first sign-in of one new user through two pools creates one user', async (t, { x, other }) => {
  for (let trial = 0; trial < 10; trial++) {
    const org = `org${trial}`;
    await seedOrg(x, org);
    const [a, b] = await Promise.all([
      linkUser({ store: x, clock }, provider(org), claims(`s${trial}`, `New${trial}@Example.com`)),
      linkUser({ store: other, clock }, provider(org), claims(`s${trial}`, `new${trial}@example.com`)),
    ]);
    t.is(a.id, b.id, `trial ${trial}`);
    t.like(a, { email: `new${trial}@example.com`, name: 'New Person', identity_kind: 'sso' });
  }
  t.is(await count(x, 'users'), 10);
  t.is(await count(x, 'memberships'), 10);
  t.is(await count(x, 'sso_identities'), 10);
  t.deepEqual(await x.all(sql`SELECT DISTINCT role FROM memberships`), [{ role: 'user' }]);
});

dialectTest('a later sign-in finds the linked account, and an existing member is linked by verified address', async (t, { x }) => {
  await seedOrg(x, 'acme');
  await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES ('ann', 'ann@acme.test', 'Ann', 0)`);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('ann', 'acme', 'admin', 0)`);
  t.is((await linkUser({ store: x, clock }, provider('acme', 0), claims('s-ann', 'ANN@acme.test'))).id, 'ann');
  t.is((await linkUser({ store: x, clock }, provider('acme', 0), { sub: 's-ann' })).id, 'ann', 'linked: no address needed');
  t.is(await count(x, 'users'), 1);
});

dialectTest('an address that belongs to a non-member or an unverified claim is refused, JIT or not', async (t, { x }) => {
  await seedOrg(x, 'acme');
  await seedOrg(x, 'zeta');
  await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES ('zed', 'zed@zeta.test', 'Zed', 0)`);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('zed', 'zeta', 'admin', 0)`);
  const denied = await t.throwsAsync(linkUser({ store: x, clock }, provider('acme'), claims('s-zed', 'zed@zeta.test')));
  t.is((denied as { code?: string }).code, 'NOT_A_MEMBER');
  const noJit = await t.throwsAsync(linkUser({ store: x, clock }, provider('acme', 0), claims('s-new', 'new@acme.test')));
  t.is((noJit as { code?: string }).code, 'NOT_A_MEMBER');
  const unverified = await t.throwsAsync(linkUser({ store: x, clock }, provider('acme'), { sub: 's-new', email: 'new@acme.test' }));
  t.is((unverified as { data?: { reason?: string } }).data?.reason, 'email_not_verified');
  t.is(await count(x, 'memberships'), 1);
  t.is(await count(x, 'sso_identities'), 0);
});
