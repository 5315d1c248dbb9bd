// Running an organization gives the same answers on SQLite and PostgreSQL, and its races have one
// winner on PostgreSQL, where `other` is a second pool standing for a second replica: two admins
// demoting, deactivating or removing each other at once leave one admin; twenty parallel accepts of
// one invitation spread over both pools make one member; parallel invitations of one address leave one pending;
// two resends at once leave one working link.
import type { ExecutionContext } from 'ava';
import { sql } from 'kysely';
import type { Principal, Role } from '../../../src/auth/index.ts';
import { acceptInvitation, changeRole, deactivateMember, getOrgSettings, invitationInfo, listMembers, removeMember, resendInvitation, updateOrgSettings, type MembersDeps } from '../../../src/auth/members/index.ts';
import type { MemberStoreDeps } from '../../../src/auth/members/deps.ts';
import { insertInvitationQuery, pendingInvitationByToken, pendingInvitations } from '../../../src/auth/members/invitation-rows.ts';
import { storeInvitation } from '../../../src/auth/members/invite-member.ts';
import { FakeClock } from '../../../src/clock.ts';
import { createLogger } from '../../../src/log.ts';
import { createMailQueue, listOutbox } from '../../../src/mail/index.ts';
import type { Executor } from '../../../src/store/index.ts';
import { accessRemoved } from '../../../src/auth/credentials/access-removed.ts';
import { dialectTest } from '../../helpers/executors.ts';

const client = { ip: '127.0.0.1' };
const noFacts = { factsOf: async () => new Map(), unknownGroups: async () => [], setFacts: async () => {}, forget: async () => {} };
const depsOn = (x: Executor, clock: FakeClock): MemberStoreDeps => ({ x, clock, facts: noFacts });

async function seedOrg(x: Executor, orgId: string, members: [string, Role][]): Promise<void> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${orgId}, ${orgId}, 0)`);
  for (const [id, role] of members) {
    await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES (${id}, ${`${id}@${orgId}.test`}, ${id}, 0)`);
    await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (${id}, ${orgId}, ${role}, 0)`);
  }
}

const principal = (userId: string, orgId: string): Principal => ({ userId, orgId, email: `${userId}@${orgId}.test`, role: 'admin' }) as Principal;

async function activeAdmins(x: Executor, orgId: string): Promise<number> {
  const rows = await x.all(sql`SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.org_id = ${orgId} AND m.role = 'admin' AND m.deactivated_at IS NULL AND u.disabled_at IS NULL`);
  return rows.length;
}

type Act = (deps: MemberStoreDeps, admin: Principal, userId: string) => Promise<unknown>;

/** Two admins act on each other at once through the two executors, trial after trial: one wins, one gets LAST_ADMIN. */
async function mutualRace(t: ExecutionContext, x: Executor, other: Executor, act: Act): Promise<void> {
  const clock = new FakeClock();
  for (let trial = 0; trial < 10; trial++) {
    const org = `org${trial}`;
    await seedOrg(x, org, [[`a${trial}`, 'admin'], [`b${trial}`, 'admin']]);
    const outcomes = await Promise.allSettled([
      act(depsOn(x, clock), principal(`a${trial}`, org), `b${trial}`),
      act(depsOn(other, clock), principal(`b${trial}`, org), `a${trial}`),
    ]);
    t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1, `trial ${trial}`);
    const refused = outcomes.find((o) => o.status === 'rejected');
    t.is((refused?.reason as { code?: string } | undefined)?.code, 'LAST_ADMIN');
    t.is(await activeAdmins(x, org), 1);
  }
}

dialectTest('two admins demoting each other at once leave one admin', async (t, { x, other }) => {
  await mutualRace(t, x, other, (deps, admin, userId) => changeRole(deps, admin, client, userId, { role: 'user' }));
});

dialectTest('two admins deactivating each other at once leave one admin', async (t, { x, other }) => {
  await mutualRace(t, x, other, (deps, admin, userId) => deactivateMember(deps, admin, client, userId));
});

dialectTest('two admins removing each other at once leave one admin', async (t, { x, other }) => {
  await mutualRace(t, x, other, (deps, admin, userId) => removeMember(deps, admin, client, userId));
});

dialectTest('a refused demotion of the last admin is audited as a failure and changes nothing', async (t, { x }) => {
  const clock = new FakeClock();
  await seedOrg(x, 'acme', [['boss', 'admin'], ['dev', 'user']]);
  const err = await t.throwsAsync(changeRole(depsOn(x, clock), principal('boss', 'acme'), client, 'boss', { role: 'user' }));
  t.is((err as { code?: string }).code, 'LAST_ADMIN');
  t.is(await activeAdmins(x, 'acme'), 1);
  const audit = await x.all(sql<{ action: string; outcome: string }>`SELECT action, outcome FROM audit_log WHERE org_id = 'acme'`);
  t.deepEqual(audit, [{ action: 'member_role_changed', outcome: 'failure' }]);
});

dialectTest('the member list searches name and email in any case and pages by email', async (t, { x }) => {
  const clock = new FakeClock();
  await seedOrg(x, 'acme', [['ann', 'admin'], ['bob', 'user'], ['cyd', 'modeler'], ['dan_x', 'user']]);
  const deps = depsOn(x, clock);
  const admin = principal('ann', 'acme');
  const first = await listMembers(deps, admin, { limit: 2 });
  t.deepEqual(first.members.map((m) => m.user_id), ['ann', 'bob']);
  const second = await listMembers(deps, admin, { limit: 2, cursor: first.next_cursor! });
  t.deepEqual(second.members.map((m) => m.user_id), ['cyd', 'dan_x']);
  t.is(second.next_cursor, null);
  t.deepEqual((await listMembers(deps, admin, { q: 'BOB' })).members.map((m) => m.user_id), ['bob']);
  t.deepEqual((await listMembers(deps, admin, { q: 'n_' })).members.map((m) => m.user_id), ['dan_x'], 'LIKE wildcards are literal');
  t.like(first.members[0], { role: 'admin', can_merge: true, status: 'active' });
});

/** Members of acme with these emails and names (ids m0, m1, ...). */
async function seedPeople(x: Executor, people: [email: string, name: string][]): Promise<void> {
  await seedOrg(x, 'acme', [['ann', 'admin']]);
  for (const [i, [email, name]] of people.entries()) {
    await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES (${`m${i}`}, ${email}, ${name}, 0)`);
    await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (${`m${i}`}, 'acme', 'user', 0)`);
  }
}

dialectTest(
  'members are listed and paged by email folded in ASCII and ordered by its bytes, whatever the collation of the database',
  async (t, { x }) => {
    await seedPeople(x, [['zed@z.test', 'Zed'], ['a.c@z.test', 'Ac'], ['Ab@z.test', 'Ab'], ['a_b@z.test', 'A B'], ['émile@z.test', 'Émile'], ['Bo@z.test', 'Bo']]);
    const deps = depsOn(x, new FakeClock());
    const expected = ['a.c@z.test', 'a_b@z.test', 'Ab@z.test', 'ann@acme.test', 'Bo@z.test', 'zed@z.test', 'émile@z.test'];
    t.deepEqual((await listMembers(deps, principal('ann', 'acme'), {})).members.map((m) => m.email), expected);
    const paged: string[] = [];
    for (let cursor: string | undefined, n = 0; n < 10; n++) {
      const page = await listMembers(deps, principal('ann', 'acme'), { limit: 2, cursor });
      paged.push(...page.members.map((m) => m.email));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    t.deepEqual(paged, expected, 'keyset pages follow the same order');
  },
  { pgCollation: 'linguistic' },
);

dialectTest('the member search folds ASCII letters only, on both dialects', async (t, { x }) => {
  await seedPeople(x, [['emile@z.test', 'Émile Zola'], ['olga@z.test', 'ÖLGA']]);
  const search = async (q: string) => (await listMembers(depsOn(x, new FakeClock()), principal('ann', 'acme'), { q })).members.map((m) => m.user_id);
  t.deepEqual(await search('ÉMILE'), ['m0'], 'A-Z folded, É kept');
  t.deepEqual(await search('émile'), [], 'é is not É');
  t.deepEqual(await search('zOLa'), ['m0']);
  t.deepEqual(await search('Ölga'), ['m1']);
  t.deepEqual(await search('ölga'), []);
});

dialectTest("a join domain another organization serves is refused and nothing of the change is kept", async (t, { x }) => {
  const clock = new FakeClock();
  await seedOrg(x, 'acme', [['ann', 'admin']]);
  await seedOrg(x, 'zeta', [['zed', 'admin']]);
  const deps = depsOn(x, clock);
  await updateOrgSettings(deps, principal('zed', 'zeta'), client, { allowed_email_domains: ['zeta.test'] });
  // Verified (a fixture marks it so in the store; the proofs are tested in test/auth/email-domains/).
  await x.run(sql`INSERT INTO org_email_domains (domain, org_id) VALUES ('zeta.test', 'zeta')`);
  const err = await t.throwsAsync(updateOrgSettings(deps, principal('ann', 'acme'), client, { mfa_required: true, allowed_email_domains: ['acme.test', 'zeta.test'] }));
  t.is((err as { code?: string }).code, 'DOMAIN_TAKEN');
  t.like(await getOrgSettings(deps, principal('ann', 'acme')), { mfa_required: false, allowed_email_domains: [] });
  const saved = await updateOrgSettings(deps, principal('ann', 'acme'), client, { mfa_required: true, allowed_email_domains: ['Acme.test'], join_default_role: 'modeler' });
  t.like(saved, { mfa_required: true, allowed_email_domains: ['acme.test'], join_default_role: 'modeler' });
});

dialectTest(
  'join domains are listed by their bytes whatever the collation of the database',
  async (t, { x }) => {
    await seedOrg(x, 'acme', [['ann', 'admin']]);
    const deps = depsOn(x, new FakeClock());
    await updateOrgSettings(deps, principal('ann', 'acme'), client, { allowed_email_domains: ['zeta.test', 'ärzte.test', 'beta.test', 'b_c.test', 'b-d.test'] });
    t.deepEqual((await getOrgSettings(deps, principal('ann', 'acme'))).allowed_email_domains, ['b-d.test', 'b_c.test', 'beta.test', 'zeta.test', 'ärzte.test']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest(
  'pending invitations made in one millisecond are listed by the bytes of their ids whatever the collation of the database',
  async (t, { x }) => {
    await seedOrg(x, 'acme', [['ann', 'admin']]);
    for (const [i, id] of ['b-inv', 'B-inv', 'a-inv'].entries()) {
      await x.run(insertInvitationQuery({ orgId: 'acme', email: `i${i}@acme.test`, role: 'user', invitedBy: 'ann', now: 5 }).query);
      await x.run(sql`UPDATE invitations SET id = ${id} WHERE email = ${`i${i}@acme.test`}`);
    }
    t.deepEqual((await pendingInvitations(x, 5, 'acme')).map((i) => i.id), ['B-inv', 'a-inv', 'b-inv']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest('twenty parallel accepts of one invitation through two executors have exactly one winner', async (t, { x, other }) => {
  const clock = new FakeClock();
  await seedOrg(x, 'acme', [['ann', 'admin']]);
  await x.run(sql`INSERT INTO sso_configs (org_id, type, issuer, client_id, created_at) VALUES ('acme', 'oidc', 'https://idp.test', 'c', 0)`);
  const { token, query } = insertInvitationQuery({ orgId: 'acme', email: 'new@acme.test', role: 'modeler', invitedBy: 'ann', now: clock.now() });
  await x.run(query);
  const accept = (ex: Executor) => acceptInvitation({ x: ex, clock } as unknown as Parameters<typeof acceptInvitation>[0], { token, method: 'sso' }, client);
  const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => accept(i % 2 ? other : x)));
  t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
  const codes = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { code?: string }).code ?? String(o.reason)] : []));
  t.deepEqual([...new Set(codes)], ['INVALID_INVITATION']);
  const users = await x.all(sql<{ id: string }>`SELECT id FROM users WHERE email = 'new@acme.test'`);
  t.is(users.length, 1);
  const memberships = await x.all(sql<{ role: string }>`SELECT role FROM memberships WHERE user_id = ${users[0]!.id}`);
  t.deepEqual(memberships, [{ role: 'modeler' }]);
  const invitation = await x.one(sql<{ accepted_user_id: string }>`SELECT accepted_user_id FROM invitations WHERE org_id = 'acme'`);
  t.is(invitation?.accepted_user_id, users[0]!.id);
  const audit = await x.all(sql<{ outcome: string }>`SELECT outcome FROM audit_log WHERE action = 'invitation_accepted' ORDER BY outcome`);
  t.is(audit.filter((a) => a.outcome === 'success').length, 1);
  t.is(audit.filter((a) => a.outcome === 'failure').length, 19);
});

dialectTest('parallel invitations of one address through two executors leave one pending invitation', async (t, { x, other }) => {
  const clock = new FakeClock();
  await seedOrg(x, 'acme', [['ann', 'admin'], ['bea', 'admin']]);
  const log = createLogger('silent');
  const deps = (ex: Executor) => ({ x: ex, clock, mailer: createMailQueue({ store: ex, clock, log }), baseUrl: 'https://sextant.test' });
  const invite = (ex: Executor, by: string) => storeInvitation(deps(ex), principal(by, 'acme'), client, { email: 'new@acme.test', role: 'user' });
  const stored = await Promise.all(Array.from({ length: 10 }, (_, i) => invite(i % 2 ? other : x, i % 2 ? 'bea' : 'ann')));
  t.is(stored.filter(Boolean).length, 1);
  const rows = await x.all(sql`SELECT id FROM invitations WHERE org_id = 'acme' AND email = 'new@acme.test'`);
  t.is(rows.length, 1);
  t.is((await x.all(sql`SELECT id FROM audit_log WHERE action = 'invitation_created'`)).length, 1);
  t.is((await listOutbox(x)).filter((m) => m.to === 'new@acme.test').length, 1, 'one mail, of the invitation that was stored');
});

/** What resending needs: the executor (the rate limits are found by it) and a mail queue on it. */
function resendDeps(ex: Executor, clock: FakeClock): MembersDeps {
  const mailer = createMailQueue({ store: ex, clock, log: createLogger('silent') });
  const mailLimits = { perAddressPerHour: 100, perClientPerHour: 100 };
  return { x: ex, store: ex, clock, mailer, baseUrl: 'https://sextant.test', mailLimits, invitationsPerDay: 100 } as unknown as MembersDeps;
}

async function pendingInvitation(x: Executor, clock: FakeClock): Promise<string> {
  await seedOrg(x, 'acme', [['ann', 'admin']]);
  const { id, query } = insertInvitationQuery({ orgId: 'acme', email: 'new@acme.test', role: 'user', invitedBy: 'ann', now: clock.now() });
  await x.run(query);
  return id;
}

dialectTest('two resends of one invitation at once through two executors mail two links, of which exactly the stored one works', async (t, { x, other }) => {
  const clock = new FakeClock();
  const id = await pendingInvitation(x, clock);
  clock.advance(1_000);
  await Promise.all([resendInvitation(resendDeps(x, clock), principal('ann', 'acme'), client, id), resendInvitation(resendDeps(other, clock), principal('ann', 'acme'), client, id)]);
  const tokens = (await listOutbox(x)).map((m) => /Invitation token: (\S+)/.exec(m.text)![1]!);
  t.is(tokens.length, 2);
  const live = await Promise.all(tokens.map((token) => pendingInvitationByToken(x, clock.now(), token)));
  t.is(live.filter(Boolean).length, 1, 'the link stored last works, the other died with its hash');
  t.is((await x.all(sql`SELECT id FROM audit_log WHERE action = 'invitation_resent'`)).length, 2);
});

dialectTest('a resend of an invitation accepted meanwhile fails and mails nothing', async (t, { x }) => {
  const clock = new FakeClock();
  const id = await pendingInvitation(x, clock);
  const deps = resendDeps(x, clock);
  // Accepted between the resend's read and its batch: the batch's renewal finds nothing pending.
  const batch = x.batch.bind(x);
  x.batch = async (qs, options) => (await x.run(sql`UPDATE invitations SET accepted_at = ${clock.now()} WHERE id = ${id}`), batch(qs, options));
  const err = await t.throwsAsync(resendInvitation(deps, principal('ann', 'acme'), client, id));
  t.is((err as { code?: string }).code, 'INVITATION_NOT_FOUND');
  t.deepEqual(await listOutbox(x), []);
  t.deepEqual(await x.all(sql`SELECT id FROM audit_log WHERE action = 'invitation_resent'`), []);
});

dialectTest('an invitation link reads its state, inviter and the account of its address alike on both dialects', async (t, { x }) => {
  const clock = new FakeClock();
  await seedOrg(x, 'acme', [['ann', 'admin']]);
  await seedOrg(x, 'other', [['oli', 'user']]);
  const fresh = insertInvitationQuery({ orgId: 'acme', email: 'new@acme.test', role: 'modeler', invitedBy: 'ann', now: clock.now() });
  const elsewhere = insertInvitationQuery({ orgId: 'acme', email: 'oli@other.test', role: 'user', invitedBy: 'ann', now: clock.now() });
  await x.run(fresh.query);
  await x.run(elsewhere.query);
  const deps = { x, clock };
  t.like(await invitationInfo(deps, fresh.token, client), { state: 'pending', org_name: 'acme', role: 'modeler', invited_by: { name: 'ann', email: 'ann@acme.test' }, account: 'new' });
  t.like(await invitationInfo(deps, elsewhere.token, client), { state: 'pending', account: 'in_other_organization' });
  await x.run(sql`UPDATE invitations SET revoked_at = ${clock.now()} WHERE email = 'oli@other.test'`);
  const revoked = await invitationInfo(deps, elsewhere.token, client);
  t.is(revoked.state, 'revoked');
  t.is(revoked.account, undefined);
  clock.advance(8 * 24 * 3600_000);
  t.is((await invitationInfo(deps, fresh.token, client)).state, 'expired');
});

dialectTest('a deactivated account is told its organization and its active admins by name, in byte order', async (t, { x }) => {
  await seedOrg(x, 'acme', [['zed', 'admin'], ['Bob', 'admin'], ['amy', 'admin'], ['gone', 'admin'], ['dev', 'user']]);
  await x.run(sql`UPDATE memberships SET deactivated_at = 1 WHERE user_id = 'gone'`);
  await x.run(sql`UPDATE users SET disabled_at = 1 WHERE id = 'dev'`);
  const err = await accessRemoved(x, 'dev');
  t.is(err.code, 'ACCESS_REMOVED');
  t.deepEqual(err.data, { org_name: 'acme', admins: ['Bob', 'amy', 'zed'] });
});
