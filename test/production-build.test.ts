// `npm start` builds src into dist and runs `node dist/main.js`. This checks that the build runs as
// the sources do: migrations, fixtures and the demo resolve from dist, and a question is answered.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess } from './helpers/gateway-process.ts';
import { buildServer } from './helpers/replicas.ts';
import { sseFrames } from './helpers/sse.ts';
import { SLOW_TEST_MS } from './helpers/patience.ts';

test('the production build serves the demo and the web client, and answers a question with the offline model', async (t) => {
  t.timeout(SLOW_TEST_MS);
  await buildServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-build-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const { proc, url, exited } = await startGatewayProcess(['dist/main.js'], { SEXTANT_DATA_DIR: dataDir, SEXTANT_LOG_LEVEL: 'info', SEXTANT_DEMO_WAREHOUSE_ORDERS: '500' });
  t.teardown(() => void proc.kill('SIGKILL'));

  t.is((await fetch(`${url}/api/health`)).status, 200);
  // dist/main.js is the bundle (src/distribution/bundle.ts): every route table and its schemas are in it.
  const openapi = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
  t.true(Object.keys(openapi.paths).length > 100);
  // The web client is part of the build and served at /.
  const page = await fetch(`${url}/`);
  t.is(page.status, 200);
  const html = await page.text();
  const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  t.truthy(script, html);
  const asset = await fetch(`${url}${script}`);
  t.is(asset.status, 200);
  t.regex(asset.headers.get('cache-control') ?? '', /immutable/);
  const signIn = await fetch(`${url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'analyst@demo.sextant.local', password: 'demo-analyst-password' }),
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const res = await fetch(`${url}/api/agentic/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ chat_id: 'build-check', message: 'total revenue by country in 2024' }),
  });
  t.is(res.status, 200);
  const events: string[] = [];
  for await (const frame of sseFrames(res)) if (frame.event) events.push(frame.event);
  t.true(events.includes('sql'), events.join(','));
  t.is(events.at(-1), 'completed');

  proc.kill('SIGTERM');
  t.is(await exited, 0);
});
