// The demo's example dashboard: seeded once with its saved questions, published to the organization;
// its tiles run for the demo analyst; a start after a crash halfway writes what is missing, and two
// seedings at once (two replicas) leave one dashboard and no error.
import test from 'ava';
import { DEMO_ORG_ID, DEMO_USERS } from '../../src/compose/demo/seed-demo.ts';
import { DEMO_DASHBOARD_ID, seedDemoDashboard } from '../../src/compose/demo/seed-demo-dashboard.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true' });
});
test.after.always(() => t0?.stop());

const count = (table: string) => t0.app.services.store.sqlite!.prepare(`SELECT count(*) FROM ${table} WHERE org_id = ?`).pluck().get(DEMO_ORG_ID) as number;
const analystToken = async () => (await call(t0, 'POST', '/api/auth/token', { body: { username: DEMO_USERS[2]!.email, password: DEMO_USERS[2]!.password } })).body.access_token as string;

test.serial('the demo analyst finds the example dashboard and every one of its tiles runs for them', async (t) => {
  const token = await analystToken();
  const listed = await call(t0, 'GET', '/api/dashboards', { token });
  t.deepEqual(listed.body.dashboards.map((d: { id: string; title: string }) => [d.id, d.title]), [[DEMO_DASHBOARD_ID, 'Sales overview']]);
  const run = await t0.fetch(`/api/dashboards/${DEMO_DASHBOARD_ID}/run`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
  t.is(run.status, 200);
  const lines = (await run.text()).trim().split('\n').map((l) => JSON.parse(l) as { status: number; rows: unknown[][]; tile_id: string });
  t.is(lines.length, 4, 'the four question tiles (the note has no run)');
  for (const l of lines) {
    t.is(l.status, 200, JSON.stringify(l));
    t.true(l.rows.length > 0, l.tile_id);
  }
  const saved = await call(t0, 'GET', '/api/saved_questions', { token });
  t.is(saved.body.questions.filter((q: { visibility: string }) => q.visibility === 'organization').length, 4);
});

test.serial('seeding again changes nothing; after a crash halfway it writes what is missing; two at once leave one dashboard', async (t) => {
  const s = t0.app.services;
  const seed = () => seedDemoDashboard(s, DEMO_ORG_ID, DEMO_USERS[0]!.email);
  await seed();
  t.deepEqual([count('saved_questions'), count('dashboards')], [4, 1]);
  // A crash after the questions and before the dashboard.
  s.store.sqlite!.prepare('DELETE FROM dashboard_tiles WHERE dashboard_id = ?').run(DEMO_DASHBOARD_ID);
  s.store.sqlite!.prepare('DELETE FROM dashboards WHERE id = ?').run(DEMO_DASHBOARD_ID);
  await Promise.all([seed(), seed()]);
  t.deepEqual([count('saved_questions'), count('dashboards')], [4, 1]);
  const tiles = s.store.sqlite!.prepare('SELECT count(*) FROM dashboard_tiles WHERE dashboard_id = ?').pluck().get(DEMO_DASHBOARD_ID);
  t.is(tiles, 5);
});
