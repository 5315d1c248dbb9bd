import test from 'ava';
import { route } from '../src/gateway/route.ts';
import { startTestApp } from './helpers/app.ts';

test('shutdown lets an in-flight request finish, refuses new connections, then closes the store', async (t) => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const app = await startTestApp({}, {
    extraRoutes: () => [
      route({
        method: 'GET',
        path: '/api/probe/slow',
        operationId: 'probe_slow',
        summary: 'slow',
        tags: ['test'],
        auth: 'none',
        handler: async () => {
          entered();
          await gate;
          return { finished: true };
        },
      }),
    ],
  });
  const slow = app.fetch('/api/probe/slow');
  await inside;
  const stopping = app.stop();
  await t.throwsAsync(() => fetch(`${app.url}/api/health`));
  release();
  const res = await slow;
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { finished: true });
  await stopping;
  t.false(app.app.services.store.sqlite!.open);
});

test('shutdown aborts the signal that long-lived streams watch', async (t) => {
  const app = await startTestApp();
  const { shutdown } = app.app.services;
  t.false(shutdown.aborted);
  await app.stop();
  t.true(shutdown.aborted);
});
