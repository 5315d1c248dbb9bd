// Email domains give the same answers on SQLite and PostgreSQL, and their races have one winner on
// PostgreSQL, where `other` is a second pool standing for a second replica: two organizations proving
// one domain at once leave it routed to one; twenty opens of one mailed link verify it once.
import { sql } from 'kysely';
import type { Principal } from '../../../src/auth/index.ts';
import { confirmDomainLink, emailDomainsOf, requestDomainLink, verifyDomainByDns, type EmailDomainDeps, type TxtRecords } from '../../../src/auth/email-domains/index.ts';
import { updateOrgSettings } from '../../../src/auth/members/index.ts';
import { FakeClock } from '../../../src/clock.ts';
import { createLogger } from '../../../src/log.ts';
import { createMailQueue, listOutbox } from '../../../src/mail/index.ts';
import type { Executor } from '../../../src/store/index.ts';
import { dialectTest } from '../../helpers/executors.ts';

const client = { ip: '127.0.0.1' };
const principal = (userId: string, orgId: string): Principal => ({ userId, orgId, email: `${userId}@${orgId}.test`, role: 'admin' }) as Principal;

/** An in-memory DNS: every TXT record published so far, by name. */
function fakeDns(): TxtRecords & { publish(name: string, value: string): void } {
  const records = new Map<string, string[]>();
  return {
    publish: (name, value) => records.set(name, [...(records.get(name) ?? []), value]),
    lookup: async (name) => records.get(name) ?? [],
  };
}

function depsOn(x: Executor, clock: FakeClock, txt: TxtRecords): EmailDomainDeps {
  return { x, store: x, clock, txt, mailer: createMailQueue({ store: x, clock, log: createLogger('silent') }), mailLimits: { perAddressPerHour: 100, perClientPerHour: 100 }, baseUrl: 'https://sextant.test' };
}

async function seedOrg(x: Executor, orgId: string): Promise<Principal> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${orgId}, ${orgId}, 0)`);
  await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES (${`${orgId}-admin`}, ${`admin@${orgId}.test`}, 'admin', 0)`);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (${`${orgId}-admin`}, ${orgId}, 'admin', 0)`);
  return principal(`${orgId}-admin`, orgId);
}

/** Claims a domain for the organization and publishes its token. */
async function claimAndPublish(deps: EmailDomainDeps, dns: ReturnType<typeof fakeDns>, admin: Principal, domain: string): Promise<void> {
  await updateOrgSettings(deps, admin, client, { allowed_email_domains: [domain] });
  const claim = (await emailDomainsOf(deps.x, admin.orgId)).find((d) => d.domain === domain)!;
  dns.publish(claim.txt_record!.name, claim.txt_record!.value);
}

const routedTo = async (x: Executor, domain: string) => (await x.one(sql<{ org_id: string }>`SELECT org_id FROM org_email_domains WHERE domain = ${domain}`))?.org_id;

dialectTest('two organizations proving one domain at once leave it routed to one; the other reads it taken', async (t, { x, other }) => {
  const clock = new FakeClock();
  const dns = fakeDns();
  const a = await seedOrg(x, 'acme');
  const b = await seedOrg(x, 'zeta');
  for (let trial = 0; trial < 8; trial++) {
    const domain = `Shared${trial}.test`.toLowerCase();
    await claimAndPublish(depsOn(x, clock, dns), dns, a, domain);
    await claimAndPublish(depsOn(x, clock, dns), dns, b, domain);
    const outcomes = await Promise.allSettled([verifyDomainByDns(depsOn(x, clock, dns), a, client, domain), verifyDomainByDns(depsOn(other, clock, dns), b, client, domain)]);
    t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1, `trial ${trial}`);
    t.is((outcomes.find((o) => o.status === 'rejected')?.reason as { code?: string }).code, 'DOMAIN_TAKEN');
    const winner = outcomes[0].status === 'fulfilled' ? a : b;
    const loser = winner === a ? b : a;
    t.is(await routedTo(x, domain), winner.orgId);
    t.like((await emailDomainsOf(x, loser.orgId)).find((d) => d.domain === domain), { status: 'taken', verified_at: null, method: null });
    t.like((await emailDomainsOf(x, winner.orgId)).find((d) => d.domain === domain), { status: 'verified', method: 'dns' });
  }
});

dialectTest('twenty opens of one mailed link over two replicas verify its domain once', async (t, { x, other }) => {
  const clock = new FakeClock();
  const dns = fakeDns();
  const a = await seedOrg(x, 'acme');
  await updateOrgSettings(depsOn(x, clock, dns), a, client, { allowed_email_domains: ['mailed.test'] });
  await requestDomainLink(depsOn(x, clock, dns), a, client, 'mailed.test', 'postmaster');
  const mail = (await listOutbox(x, 10)).find((m) => m.to === 'postmaster@mailed.test');
  const token = /Verification token: (\S+)/.exec(mail?.text ?? '')![1]!;
  const opens = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => confirmDomainLink(depsOn(i % 2 ? other : x, clock, dns), a, client, token)));
  t.is(opens.filter((o) => o.status === 'fulfilled').length, 1);
  t.true(opens.every((o) => o.status === 'fulfilled' || (o.reason as { code?: string }).code === 'INVALID_DOMAIN_LINK'));
  t.is(await routedTo(x, 'mailed.test'), 'acme');
});

dialectTest('claims are listed by their bytes with their status, and an operator\'s routing row without a claim reads verified', async (t, { x }) => {
  const clock = new FakeClock();
  const dns = fakeDns();
  const a = await seedOrg(x, 'acme');
  await updateOrgSettings(depsOn(x, clock, dns), a, client, { allowed_email_domains: ['zeta.test', 'B-d.test', 'b_c.test', 'beta.test'] });
  await x.run(sql`INSERT INTO org_email_domains (domain, org_id, verified_at, method) VALUES ('aa.test', 'acme', 5, 'operator')`);
  const listed = await emailDomainsOf(x, 'acme');
  t.deepEqual(listed.map((d) => [d.domain, d.status]), [['aa.test', 'verified'], ['b-d.test', 'pending'], ['b_c.test', 'pending'], ['beta.test', 'pending'], ['zeta.test', 'pending']]);
  t.like(listed[0], { txt_record: null, method: 'operator', verified_at: new Date(5).toISOString() });
  t.regex(listed[1]!.txt_record!.value, /^sxt-verify-[0-9a-f]{32}$/);
  // Claiming again keeps the tokens already published.
  const before = listed.map((d) => d.txt_record?.value);
  await updateOrgSettings(depsOn(x, clock, dns), a, client, { allowed_email_domains: ['aa.test', 'zeta.test', 'b-d.test', 'b_c.test', 'beta.test'] });
  t.deepEqual((await emailDomainsOf(x, 'acme')).map((d) => d.txt_record?.value ?? undefined).slice(1), before.slice(1));
}, { pgCollation: 'linguistic' });
