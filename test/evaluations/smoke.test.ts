import test from 'ava';
import { findUserByEmail } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/demo/seed-demo.ts';
import { call } from '../helpers/api.ts';
import { startTestApp } from '../helpers/app.ts';

test('smoke', async (t) => {
  const t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '3000' });
  t.teardown(() => t0.stop());
  const token = t0.token(findUserByEmail(t0.app.services.store.db, 'admin@demo.sextant.local')!, 'api', DEMO_ORG_ID);
  const list = await call(t0, 'GET', '/api/evaluations', { token });
  t.log(JSON.stringify(list.body).slice(0, 500));
  const started = await call(t0, 'POST', '/api/evaluations/core-questions/runs', { token, body: { target: { kind: 'production' } } });
  t.log(started.status, JSON.stringify(started.body));
  await t0.app.services.evaluations.settled(started.body.id);
  const run = await call(t0, 'GET', `/api/evaluation_runs/${started.body.id}`, { token });
  t.log(JSON.stringify({ ...run.body, questions: undefined }));
  for (const q of run.body.questions) t.log(q.id, q.result, q.expected, q.observed, q.observed_source, q.error, q.answer?.slice(0, 120));
  t.pass();
});
