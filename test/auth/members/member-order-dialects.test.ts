// Orders that are part of an answer follow the bytes of the text on both dialects, also on a
// PostgreSQL whose collation is linguistic (en-US, as the official image and most hosted services):
// the member list and its keyset pages by email (without case, as users.email compares), workspaces by
// name, email domains.
import { sql } from 'kysely';
import type { Principal, Role } from '../../../src/auth/index.ts';
import { listWorkspaces } from '../../../src/auth/account/workspaces.ts';
import { getOrgSettings, listMembers } from '../../../src/auth/members/index.ts';
import { FakeClock } from '../../../src/clock.ts';
import type { Executor } from '../../../src/store/index.ts';
import { dialectTest } from '../../helpers/executors.ts';

const noFacts = { factsOf: async () => new Map(), unknownGroups: async () => [], setFacts: async () => {}, forget: async () => {} };
const admin = { userId: 'ann', orgId: 'acme', baseOrgId: 'acme', email: 'ann@acme.test', role: 'admin' } as Principal;
// Bytes put `-` before `_`, a linguistic collation the other way round; emails compare without case.
const EMAILS = ['Bea@acme.test', 'ann@acme.test', 'x-1@acme.test', 'x_1@acme.test'];
const linguistic = { pgCollation: 'linguistic' } as const;

async function seed(x: Executor): Promise<void> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0)`);
  for (const [i, email] of EMAILS.entries()) {
    const id = i === 1 ? 'ann' : `u${i}`;
    await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES (${id}, ${email}, ${id}, 0)`);
    await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (${id}, 'acme', ${'admin' satisfies Role}, 0)`);
  }
}

dialectTest(
  'the member list and its keyset pages follow the bytes of the emails whatever the collation',
  async (t, { x }) => {
    await seed(x);
    const deps = { x, clock: new FakeClock(), facts: noFacts };
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listMembers(deps, admin, { limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.members.map((m) => m.email));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    t.deepEqual(seen, ['ann@acme.test', 'Bea@acme.test', 'x-1@acme.test', 'x_1@acme.test']);
    t.deepEqual((await listMembers(deps, admin, {})).members.map((m) => m.email), seen);
  },
  linguistic,
);

dialectTest(
  'workspaces and email domains are listed by the bytes of their names whatever the collation',
  async (t, { x }) => {
    await seed(x);
    for (const [id, name] of [['w1', 'beta'], ['w2', 'Alpha'], ['w3', 'x_1'], ['w4', 'x-1']]) {
      await x.run(sql`INSERT INTO organizations (id, name, base_org_id, created_at) VALUES (${id}, ${name}, 'acme', 0)`);
      await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('ann', ${id}, 'user', 0)`);
    }
    t.deepEqual((await listWorkspaces({ store: x }, admin)).workspaces.map((w) => w.name), ['Alpha', 'beta', 'x-1', 'x_1']);
    for (const domain of ['b.test', 'a_b.test', 'a-b.test']) await x.run(sql`INSERT INTO org_email_domains (org_id, domain) VALUES ('acme', ${domain})`);
    t.deepEqual((await getOrgSettings({ x }, admin)).allowed_email_domains, ['a-b.test', 'a_b.test', 'b.test']);
  },
  linguistic,
);
