// The request path's shortcuts answer exactly as the general path does: static routes from a table
// (HEAD as GET, 405, and a trailing slash refused as the strict router refuses it), CORS only when origins are
// configured, and revocation seen on the very next request with every credential kind.
import test from 'ava';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_CORS_ORIGINS: 'https://app.example.com' });
});
test.after.always(() => t0.stop());

test('static routes answer GET, HEAD, a trailing slash and a wrong method as the router does (a trailing slash is another path: 404)', async (t) => {
  const get = await t0.fetch('/api/health');
  t.is(get.status, 200);
  t.like(await get.json(), { status: 'ok' });
  const head = await t0.fetch('/api/health', { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(await head.text(), '');
  t.is((await t0.fetch('/api/health/')).status, 404);
  const post = await t0.fetch('/api/health', { method: 'POST' });
  t.is(post.status, 405);
  t.is(post.headers.get('allow'), 'GET');
  t.is((await t0.fetch('/api/healthz')).status, 404);
});

test('CORS answers configured origins only', async (t) => {
  const allowed = await t0.fetch('/api/health', { headers: { origin: 'https://app.example.com' } });
  t.is(allowed.headers.get('access-control-allow-origin'), 'https://app.example.com');
  const other = await t0.fetch('/api/health', { headers: { origin: 'https://evil.example.com' } });
  t.is(other.headers.get('access-control-allow-origin'), null);
});

test('without configured origins no CORS header is sent', async (t) => {
  const plain = await startTestApp();
  try {
    const res = await plain.fetch('/api/health', { headers: { origin: 'https://app.example.com' } });
    t.is(res.status, 200);
    t.is(res.headers.get('access-control-allow-origin'), null);
  } finally {
    await plain.stop();
  }
});

test('revocation is seen on the next request with an API key, a bearer JWT and a session cookie', async (t) => {
  const user = t0.user();
  const apiKey = t0.token(user);
  const jwt = t0.session(user);
  const cookieJwt = t0.session(user);
  const me = (headers: Record<string, string>) => t0.fetch('/api/auth/me', { headers }).then((r) => r.status);
  const kinds: Record<string, string>[] = [{ 'api-key': apiKey }, { authorization: `Bearer ${jwt}` }, { cookie: `sextant_session=${cookieJwt}` }];
  for (const headers of kinds) t.is(await me(headers), 200);
  // Warm: each credential was just accepted; now revoke each in the store and ask again at once.
  const db = t0.app.services.store.sqlite!;
  db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE user_id = ?').run(t0.clock.now(), user.id);
  t.is(await me(kinds[0]!), 401);
  db.prepare('UPDATE sessions SET ended_at = ? WHERE user_id = ?').run(t0.clock.now(), user.id);
  t.is(await me(kinds[1]!), 401);
  t.is(await me(kinds[2]!), 401);
  const again = t0.session(user);
  t.is(await me({ authorization: `Bearer ${again}` }), 200);
  db.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?').run(user.id);
  t.is(await me({ authorization: `Bearer ${again}` }), 401);
});

test('a role change, a disabled user and a removed membership are seen on the next request', async (t) => {
  const user = t0.user({ role: 'admin' });
  const headers = { 'api-key': t0.token(user) };
  const me = async () => {
    const res = await t0.fetch('/api/auth/me', { headers });
    return res.status === 200 ? ((await res.json()) as { role: string }).role : res.status;
  };
  t.is(await me(), 'admin');
  const db = t0.app.services.store.sqlite!;
  db.prepare("UPDATE memberships SET role = 'user' WHERE user_id = ?").run(user.id);
  t.is(await me(), 'user');
  db.prepare('UPDATE users SET disabled_at = ? WHERE id = ?').run(t0.clock.now(), user.id);
  t.is(await me(), 401);
  db.prepare('UPDATE users SET disabled_at = NULL WHERE id = ?').run(user.id);
  t.is(await me(), 'user');
  db.prepare('DELETE FROM memberships WHERE user_id = ?').run(user.id);
  t.is(await me(), 401);
});

test.serial('a revocation written by another process is seen within a second', async (t) => {
  const user = t0.user();
  const headers = { authorization: `Bearer ${t0.session(user)}` };
  const me = () => t0.fetch('/api/auth/me', { headers }).then((r) => r.status);
  t.is(await me(), 200);
  const other = new Database(join(t0.config.dataDir, 'sextant.db'));
  try {
    other.prepare('UPDATE sessions SET ended_at = ? WHERE user_id = ?').run(t0.clock.now(), user.id);
  } finally {
    other.close();
  }
  t0.clock.advance(1000);
  t.is(await me(), 401);
});

test("the user's own fields in /api/auth/me follow a profile edit and a row written in the store on the next request", async (t) => {
  const user = t0.user();
  const headers = { 'api-key': t0.token(user) };
  const me = async () => (await (await t0.fetch('/api/auth/me', { headers })).json()) as { name: string; mfa_enabled: boolean };
  t.not((await me()).name, 'Renamed Once');
  const edit = await t0.fetch('/api/auth/user_profile', { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Renamed Once' }) });
  t.is(edit.status, 200);
  t.is((await me()).name, 'Renamed Once');
  t0.app.services.store.sqlite!.prepare("UPDATE users SET name = 'Renamed Twice', totp_enabled_at = 1 WHERE id = ?").run(user.id);
  t.like(await me(), { name: 'Renamed Twice', mfa_enabled: true });
});
