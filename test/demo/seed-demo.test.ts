import test from 'ava';
import { DEMO_ORG_ID, DEMO_USERS } from '../../src/demo/seed-demo.ts';
import { startTestApp } from '../helpers/app.ts';
import { seedDemo } from '../../src/demo/seed-demo.ts';
import { findUserByEmail, getMembership } from '../../src/auth/index.ts';
import { verifyPassword } from '../../src/security/index.ts';

test('the demo organization is seeded with an admin, a modeler and a user, and seeding twice changes nothing', async (t) => {
  const app = await startTestApp({ SEXTANT_SEED_DEMO: 'true' });
  t.teardown(() => app.stop());
  const s = app.app.services;
  const count = () => s.store.db.prepare('SELECT count(*) FROM users').pluck().get();
  t.is(count(), 3);
  await seedDemo(s);
  t.is(count(), 3);
  for (const u of DEMO_USERS) {
    const row = findUserByEmail(s.store.db, u.email)!;
    t.is(getMembership(s.store.db, row.id, DEMO_ORG_ID)?.role, u.role);
    t.true(await verifyPassword(u.password, row.password_hash!));
  }
});

test('with seeding disabled no demo organization exists', async (t) => {
  const app = await startTestApp({ SEXTANT_SEED_DEMO: 'false' });
  t.teardown(() => app.stop());
  t.is(app.app.services.store.db.prepare('SELECT count(*) FROM organizations').pluck().get(), 0);
});
