// Replicas starting together on one empty database both seed the demo organization: both starts go
// on, and the organization and its users exist once.
import { sql } from 'kysely';
import { FakeClock } from '../../src/clock.ts';
import { DEMO_USERS, seedDemoOrg } from '../../src/compose/demo/seed-demo.ts';
import { createLogger } from '../../src/log.ts';
import { dialectTest } from '../helpers/executors.ts';

dialectTest('two replicas seeding the demo organization at once both succeed, and it exists once', async (t, c) => {
  const deps = { clock: new FakeClock(), log: createLogger('silent') };
  await Promise.all([seedDemoOrg({ ...deps, executor: c.x }), seedDemoOrg({ ...deps, executor: c.other })]);
  const users = await c.x.all<{ email: string }>(sql`SELECT email FROM users ORDER BY email`);
  t.deepEqual(users.map((u) => u.email), DEMO_USERS.map((u) => u.email).sort());
  const members = await c.x.all(sql`SELECT user_id FROM memberships WHERE org_id = 'demo'`);
  t.is(members.length, DEMO_USERS.length);
});
