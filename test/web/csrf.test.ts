// A page of another origin cannot act with the signed-in person's cookie: a form it posts to the API
// is refused (same site on another port, which gets the cookie, and another site, which does not).
import anyTest, { type TestFn } from 'ava';
import { createServer, type Server } from 'node:http';
import { browserTest, openPage } from '../helpers/browser.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
let attacker: Server;
let attackerPort = 0;
test.before(async () => {
  w = await startWebApp();
  // The attacker's page posts a form to the API at once (it has no CSP of its own).
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><form method="post" action="${w.url}/api/auth/user/tokens" enctype="text/plain"><input name='{"name":"stolen","x":"' value='"}'></form><script>document.forms[0].submit()</script>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as { port: number }).port;
});
test.after.always(async () => {
  attacker?.close();
  await w?.stop();
});

for (const host of ['127.0.0.1', 'localhost']) {
  test.serial(`a form posted from a page at ${host} on another port with the session cookie is refused`, async (t) => {
    const { page, context } = await openPage(t, w.browser, w.url);
    await signInAs(context);
    await page.goto('/');
    await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/auth/user/tokens'));
    await page.goto(`http://${host}:${attackerPort}/`);
    const res = await refused;
    t.is(res.status(), 403);
    const db = w.app.services.store.sqlite!;
    t.is(db.prepare("SELECT COUNT(*) FROM api_tokens WHERE name = 'stolen'").pluck().get(), 0);
  });
}
