// The demo organization changes production only through environments, as its walkthrough does (issue
// 35); the test harness turns it off for the tests that write production directly.
import { FakeClock } from '../../src/clock.ts';
import { productionThroughEnvironments } from '../../src/auth/members/index.ts';
import { DEMO_ORG_ID, seedDemoOrg } from '../../src/compose/demo/seed-demo.ts';
import { createLogger } from '../../src/log.ts';
import { dialectTest } from '../helpers/executors.ts';

dialectTest('the seeded demo organization changes production only through environments', async (t, c) => {
  await seedDemoOrg({ clock: new FakeClock(), log: createLogger('silent'), executor: c.x });
  t.true(await productionThroughEnvironments(c.x, DEMO_ORG_ID));
});
