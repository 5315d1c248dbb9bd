// The gateway serving the web client: hashed assets cached for good, the page never cached and
// under the app's CSP, client routes answered with the page, server paths never.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let dir: string;
const INDEX = '<!doctype html><html lang="en"><head><title>Sextant</title><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sextant-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  writeFileSync(join(dir, 'theme.css'), 'body{color:red}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t0 = await startTestApp({}, { webDir: dir });
});
test.after.always(async () => {
  await t0.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('the app page answers / and every client route, uncached, under a CSP without inline scripts, with a readable CSRF cookie', async (t) => {
  // A page whose last segment has a dot (a table item `warehouse/main.orders`) is a page, not a file.
  for (const path of ['/', '/login', '/chat/abc', '/magic-link?token=x', '/settings/tokens', '/knowledge/items/tables/demo_warehouse%2Fmain.customers']) {
    const res = await t0.fetch(path);
    t.is(res.status, 200, path);
    t.regex(res.headers.get('content-type') ?? '', /text\/html/);
    t.is(res.headers.get('cache-control'), 'no-store');
    const csp = res.headers.get('content-security-policy') ?? '';
    t.regex(csp, /script-src 'self';/);
    t.false(/script-src[^;]*unsafe-inline/.test(csp));
    t.regex(csp, /frame-ancestors 'none'/);
    t.is(await res.text(), INDEX);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sextant_csrf='));
    t.truthy(cookie, path);
    t.false(/httponly/i.test(cookie!));
    t.regex(cookie!, /samesite=strict/i);
  }
  // A browser that has the cookie keeps it.
  const again = await t0.fetch('/', { headers: { cookie: 'sextant_csrf=an-existing-token-value' } });
  t.is(again.headers.getSetCookie().length, 0);
});

test('hashed assets are immutable and gzipped; public files revalidate, the icon after a day; HEAD works', async (t) => {
  const asset = await t0.fetch('/assets/index-abc123.js', { headers: { 'accept-encoding': 'gzip' } });
  t.is(asset.status, 200);
  t.is(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.regex(asset.headers.get('content-type') ?? '', /text\/javascript/);
  t.is(asset.headers.get('content-encoding'), 'gzip');
  t.true((await asset.text()).startsWith('console.log'));
  const css = await t0.fetch('/theme.css');
  t.is(css.headers.get('cache-control'), 'no-cache');
  t.is(await css.text(), 'body{color:red}');
  const icon = await t0.fetch('/favicon.svg');
  t.is(icon.headers.get('cache-control'), 'public, max-age=86400');
  t.regex(icon.headers.get('content-type') ?? '', /svg/);
  const head = await t0.fetch('/chat/x', { method: 'HEAD' });
  t.is(head.status, 200);
});

test('server paths are never answered with the app: unknown API paths, assets and files are JSON 404s', async (t) => {
  for (const path of ['/api/nope', '/api', '/ai/other', '/oauth/nope', '/.well-known/nope', '/cli/nope', '/assets/missing.js', '/missing.png', '/assets/../../package.json', '/%2e%2e/package.json']) {
    const res = await t0.fetch(path);
    t.is(res.status, 404, path);
    t.regex(res.headers.get('content-type') ?? '', /json/, path);
  }
  t.is((await t0.fetch('/openapi.json')).status, 200);
  t.regex((await (await t0.fetch('/docs')).text()), /API reference|Sextant API/);
  t.is((await t0.fetch('/api/health')).status, 200);
  // Only GET and HEAD reach the app; other methods on a client route are not found.
  t.is((await t0.fetch('/chat/x', { method: 'POST' })).status, 404);
});
