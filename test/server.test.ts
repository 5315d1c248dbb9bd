import test from 'ava';
import { route } from '../src/gateway/route.ts';
import { KEEP_ALIVE_MS, listen } from '../src/server.ts';
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

test('idle keep-alive connections outlast what load balancers and clients keep them for', async (t) => {
  const app = await startTestApp();
  // A second listener on the same app: the test app's own lengthens keep-alive further for slow machines.
  const second = await listen(app.app, { host: '127.0.0.1', port: 0, graceMs: 1000 });
  try {
    t.true(second.server.keepAliveTimeout > 60_000, 'longer than an AWS ALB or nginx upstream keeps one (60 s)');
    t.true(second.server.headersTimeout > second.server.keepAliveTimeout);
    const res = await fetch(`${second.url}/api/health`);
    t.is(res.headers.get('keep-alive'), `timeout=${KEEP_ALIVE_MS / 1000}`);
    await res.arrayBuffer();
  } finally {
    second.server.closeAllConnections();
    await new Promise<void>((resolve) => second.server.close(() => resolve()));
    await app.stop();
  }
});
