// The directory (organizations, users, memberships), the audit writer and the single-use consumer give
// the same answers on SQLite and PostgreSQL, and a single-use row raced from two replicas is spent once.
import { sql } from 'kysely';
import {
  baseOrgOf,
  createOrganization,
  createUser,
  findUserByEmail,
  getMembership,
  getOrganization,
  getUser,
  setMembership,
  userEmails,
  writeAudit,
} from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { consumeOnce } from '../../src/security/index.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';

dialectTest('an organization and a user come back as created, the address normalized', async (t, { x }) => {
  const clock = new FakeClock();
  const org = await createOrganization(x, clock, { id: 'acme', name: 'Acme', mfaEnforced: true });
  t.like(org, { id: 'acme', name: 'Acme', base_org_id: null, mfa_enforced: 1, created_at: clock.now() });
  t.deepEqual(await getOrganization(x, 'acme'), org);
  const user = await createUser(x, clock, { id: 'u1', email: '  Ada@Example.COM ', name: 'Ada', passwordHash: 'h', emailVerified: true });
  t.like(user, { id: 'u1', email: 'ada@example.com', identity_kind: 'password', email_verified_at: clock.now(), disabled_at: null, token_version: 0 });
  t.deepEqual(await getUser(x, 'u1'), user);
  t.deepEqual(await findUserByEmail(x, 'ADA@example.com'), user);
  t.is(await getUser(x, 'nobody'), undefined);
  t.is(await getOrganization(x, 'nowhere'), undefined);
  await t.throwsAsync(createUser(x, clock, { email: 'ada@example.com' }), { any: true }, 'one account per address');
});

dialectTest('a membership is set, changed in place, and the base organization is the first non-workspace one', async (t, { x }) => {
  const clock = new FakeClock();
  await createOrganization(x, clock, { id: 'acme', name: 'Acme' });
  await createOrganization(x, clock, { id: 'ws', name: 'Workspace', baseOrgId: 'acme' });
  await createUser(x, clock, { id: 'u1', email: 'a@example.com' });
  t.is(await baseOrgOf(x, 'u1'), undefined);
  await setMembership(x, clock, { userId: 'u1', orgId: 'ws', role: 'user' });
  t.is(await baseOrgOf(x, 'u1'), undefined, 'a workspace is no base organization');
  clock.advance(1);
  await setMembership(x, clock, { userId: 'u1', orgId: 'acme', role: 'user' });
  await setMembership(x, clock, { userId: 'u1', orgId: 'acme', role: 'admin', permissions: ['merge_to_production'] });
  t.deepEqual(await getMembership(x, 'u1', 'acme'), { user_id: 'u1', org_id: 'acme', role: 'admin', can_merge: 1, deactivated_at: null });
  t.is((await baseOrgOf(x, 'u1'))?.id, 'acme');
  t.is(await getMembership(x, 'u1', 'elsewhere'), undefined);
});

dialectTest('email addresses come back by id, unknown ids left out', async (t, { x }) => {
  const clock = new FakeClock();
  await createUser(x, clock, { id: 'u1', email: 'one@example.com' });
  await createUser(x, clock, { id: 'u2', email: 'two@example.com' });
  t.deepEqual([...(await userEmails(x, ['u2', 'u1', 'u2', 'ghost']))].sort(), [['u1', 'one@example.com'], ['u2', 'two@example.com']]);
  t.deepEqual(await userEmails(x, []), new Map());
});

dialectTest('an audit entry is written with its defaults', async (t, { x }) => {
  const clock = new FakeClock();
  await writeAudit({ store: x, clock }, { action: 'sign_in', userId: 'u1', orgId: 'acme', ip: '10.0.0.1' });
  const row = await x.one(sql`SELECT action, user_id, actor_id, org_id, target_type, target_id, ip, outcome, data, created_at FROM audit_log`);
  t.deepEqual(row, { action: 'sign_in', user_id: 'u1', actor_id: 'u1', org_id: 'acme', target_type: 'user', target_id: 'u1', ip: '10.0.0.1', outcome: 'success', data: '{}', created_at: clock.now() });
});

/** An SSO login row (the table the consumer serves in the service). */
async function ssoLogin(x: Executor, state: string, expiresAt: number): Promise<void> {
  await x.run(sql`INSERT INTO sso_logins (state_hash, org_id, type, code_verifier, nonce, next_path, created_at, expires_at)
                  VALUES (${state}, 'acme', 'oidc', 'v', 'n', '/', 0, ${expiresAt})`);
}

dialectTest('a single-use row is spent once, by column values or by a condition', async (t, { x }) => {
  const clock = new FakeClock();
  await ssoLogin(x, 's1', clock.now() + 1000);
  await ssoLogin(x, 's2', clock.now() - 1);
  const byValues = { table: 'sso_logins', usedColumn: 'used_at', where: { state_hash: 's1', org_id: 'acme' }, now: clock.now() };
  t.false(await consumeOnce(x, { ...byValues, where: { state_hash: 's1', org_id: 'other' } }), 'another organization');
  t.true(await consumeOnce(x, byValues));
  t.false(await consumeOnce(x, byValues), 'already spent');
  const live = (state: string) => sql<boolean>`state_hash = ${state} AND expires_at > ${clock.now()}`;
  t.false(await consumeOnce(x, { table: 'sso_logins', usedColumn: 'used_at', where: live('s2'), now: clock.now() }), 'expired');
  const row = await x.one<{ used_at: number | null }>(sql`SELECT used_at FROM sso_logins WHERE state_hash = 's1'`);
  t.is(Number(row?.used_at), clock.now());
});

dialectTest('a single-use row raced from two replicas has exactly one winner', async (t, { x, other }) => {
  const clock = new FakeClock();
  for (let round = 0; round < 10; round++) {
    await ssoLogin(x, `race${round}`, clock.now() + 1000);
    const spend = (y: typeof x) => consumeOnce(y, { table: 'sso_logins', usedColumn: 'used_at', where: { state_hash: `race${round}` }, now: clock.now() });
    const won = await Promise.all([x, other, x, other, x, other].map(spend));
    t.is(won.filter(Boolean).length, 1, `round ${round}`);
  }
});
