import test from 'ava';
import { DEMO_ORG_ID, seedDemo } from '../../src/demo/seed-demo.ts';
import { history } from '../../src/git/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp } from '../helpers/app.ts';

test('the demo organization gets its warehouse documentation as its first commit, once', async (t) => {
  const t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true' });
  try {
    const repo = await t0.app.services.knowledge.repos.repo(DEMO_ORG_ID);
    const commits = await history({ repo, ref: 'main' });
    t.is(commits.length, 1);
    t.is(commits[0]?.author.email, 'admin@demo.sextant.local');
    await seedDemo(t0.app.services);
    t.is((await history({ repo, ref: 'main' })).length, 1);
    const analyst = t0.app.services.store.db.prepare('SELECT id FROM users WHERE email = ?').get('analyst@demo.sextant.local') as { id: string };
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
