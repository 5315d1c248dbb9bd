// Seeding the demo organization on SQLite and PostgreSQL: two replicas starting together on one fresh
// database (two executors) leave one demo organization with its three users, and neither fails.
import { sql } from 'kysely';
import { DEMO_ORG_ID, DEMO_USERS, seedDemoOrg } from '../../src/compose/demo/seed-demo.ts';
import { FakeClock } from '../../src/clock.ts';
import { createLogger } from '../../src/log.ts';
import { dialectTest } from '../helpers/executors.ts';

dialectTest('two replicas seeding the demo organization at once leave one, with its users, and both start', async (t, { x, other }) => {
  const clock = new FakeClock();
  const log = createLogger('silent');
  await Promise.all([seedDemoOrg({ executor: x, clock, log }), seedDemoOrg({ executor: other, clock, log })]);
  await seedDemoOrg({ executor: other, clock, log });
  const members = await x.all(sql<{ email: string; role: string }>`SELECT u.email, m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ${DEMO_ORG_ID} ORDER BY u.email`);
  t.deepEqual(members, DEMO_USERS.map((u) => ({ email: u.email, role: u.role })).toSorted((a, b) => a.email.localeCompare(b.email)));
  t.is((await x.all(sql`SELECT id FROM organizations`)).length, 1);
});
