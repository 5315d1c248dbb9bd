import test from 'ava';
import { expireThrowawayEnvironments } from '../../src/knowledge/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Its own app: moving the fake clock by weeks would expire the sessions of other tests.
let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const mkEnv = async (name: string, token: string) =>
  (await call(t0, 'POST', '/api/environments', { token, body: { name, color: '#1e88e5' } })).body as { id: string };

test('throwaway environments expire after 7 days without activity, lasting ones never', async (t) => {
  const k = t0.app.services.knowledge;
  const u = t0.user({ orgId: t0.org('acme'), role: 'modeler' });
  // An API token without expiry outlives the clock jumps below.
  const modeler = t0.token(u);
  const idle = (await call(t0, 'POST', '/api/environments/quick_fix', { token: modeler, body: {} })).body.id as string;
  const active = (await call(t0, 'POST', '/api/environments/quick_fix', { token: modeler, body: {} })).body.id as string;
  const lasting = (await mkEnv('Lasting', modeler)).id;
  t0.clock.advance(6 * 24 * 3600_000);
  // Any request scoped to the environment counts as activity.
  t.is((await call(t0, 'GET', '/api/knowledge/notes', { token: modeler, env: active })).status, 200);
  t.deepEqual(await expireThrowawayEnvironments(k), []);
  t0.clock.advance(24 * 3600_000);
  t.deepEqual(await expireThrowawayEnvironments(k), [idle]);
  t.is((await call(t0, 'GET', `/api/environments/${idle}`, { token: modeler })).status, 404);
  t.is((await call(t0, 'GET', `/api/environments/${active}`, { token: modeler })).status, 200);
  t0.clock.advance(6 * 24 * 3600_000 + 1);
  t.deepEqual(await expireThrowawayEnvironments(k), [active]);
  t.is((await call(t0, 'GET', `/api/environments/${lasting}`, { token: modeler })).status, 200);
});
