import test from 'ava';
import { history } from '../../src/git/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp } from '../helpers/app.ts';
import { DEMO_ORG_ID, DEMO_USERS, seedDemo } from '../../src/compose/demo/seed-demo.ts';
import { findUserByEmail, getMembership } from '../../src/auth/index.ts';
import { verifyPassword } from '../../src/security/index.ts';

test('the demo organization is seeded with an admin, a modeler and a user, and seeding twice changes nothing', async (t) => {
  const app = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_BCRYPT_COST: '5' });
  t.teardown(() => app.stop());
  const s = app.app.services;
  const count = () => s.store.sqlite!.prepare('SELECT count(*) FROM users').pluck().get();
  t.is(count(), 3);
  await seedDemo(s);
  t.is(count(), 3);
  for (const u of DEMO_USERS) {
    const row = (await findUserByEmail(s.executor, u.email))!;
    t.is((await getMembership(s.executor, row.id, DEMO_ORG_ID))?.role, u.role);
    t.true(await verifyPassword(u.password, row.password_hash!));
    t.regex(row.password_hash!, /^\$2[ab]\$05\$/, 'hashed at the configured cost');
  }
});

test('with seeding disabled no demo organization exists', async (t) => {
  const app = await startTestApp({ SEXTANT_SEED_DEMO: 'false' });
  t.teardown(() => app.stop());
  t.is(app.app.services.store.sqlite!.prepare('SELECT count(*) FROM organizations').pluck().get(), 0);
});

test('the demo organization gets its warehouse documentation as its first commit, once', async (t) => {
  const t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true' });
  try {
    const repo = await t0.app.services.knowledge.repos.repo(DEMO_ORG_ID);
    const commits = await history({ repo, ref: 'main' });
    t.is(commits.length, 1);
    t.is(commits[0]?.author.email, 'admin@demo.sextant.local');
    await seedDemo(t0.app.services);
    t.is((await history({ repo, ref: 'main' })).length, 1);
    const analyst = t0.app.services.store.sqlite!.prepare('SELECT id FROM users WHERE email = ?').get('analyst@demo.sextant.local') as { id: string };
    const token = t0.session({ id: analyst.id, token_version: 0 } as never, DEMO_ORG_ID);
    const tables = await call(t0, 'GET', '/api/knowledge/tables', { token });
    t.is(tables.status, 200);
    t.is(tables.body.items.length, 4);
    for (const kind of ['relationships', 'notes', 'reports', 'skills', 'evaluations']) {
      t.true((await call(t0, 'GET', `/api/knowledge/${kind}`, { token })).body.items.length >= 1, kind);
    }
  } finally {
    await t0.stop();
  }
});
