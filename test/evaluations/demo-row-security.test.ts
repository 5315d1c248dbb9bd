// A run asks as the user who started it: on the demo, a modeler whose rows are limited to Japanese
// customers sees the evaluation through that filter, while the admin (exempt) sees every customer.
import test from 'ava';
import { sqliteExecutor } from '../../src/store/index.ts';
import { findUserByEmail } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { call } from '../helpers/api.ts';
import { startTestApp } from '../helpers/app.ts';

test('row-level security of the user who started a run applies to every question', async (t) => {
  const t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '3000' });
  t.teardown(() => t0.stop());
  const db = t0.app.services.store.sqlite!;
  const adminUser = (await findUserByEmail(sqliteExecutor(db), 'admin@demo.sextant.local'))!;
  const modelerUser = (await findUserByEmail(sqliteExecutor(db), 'modeler@demo.sextant.local'))!;
  const admin = t0.token(adminUser, 'api', DEMO_ORG_ID);
  const modeler = t0.token(modelerUser, 'api', DEMO_ORG_ID);
  t.is((await call(t0, 'PUT', `/api/row-security/users/${modelerUser.id}/attributes`, { token: admin, body: { attributes: { country: 'Japan' } } })).status, 200);
  const id = encodeURIComponent('demo_warehouse/main.customers');
  const customers = (await call(t0, 'GET', `/api/knowledge/tables/${id}`, { token: admin })).body.data;
  const saved = await call(t0, 'PUT', `/api/knowledge/tables/${id}`, { token: admin, body: { ...customers, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] } });
  t.is(saved.status, 200);

  const runAs = async (token: string) => {
    const { body } = await call(t0, 'POST', '/api/evaluations/core-questions/runs', { token, body: {} });
    await t0.app.services.evaluations.settled(body.id);
    return (await call(t0, 'GET', `/api/evaluation_runs/${body.id}`, { token })).body;
  };
  const byId = (run: { questions: { id: string; result: string; observed: unknown; expected: unknown }[] }, q: string) => run.questions.find((x) => x.id === q)!;

  const asAdmin = await runAs(admin);
  t.is(byId(asAdmin, 'customers.total').result, 'pass');
  const asModeler = await runAs(modeler);
  const total = byId(asModeler, 'customers.total');
  const japan = byId(asModeler, 'customers.japan');
  t.is(total.result, 'fail');
  t.is(total.observed, japan.expected, 'the modeler counts only the customers the filter lets through');
  t.is(japan.result, 'pass');
  t.is(byId(asModeler, 'products.total').result, 'pass', 'tables without a filter are whole');
});
