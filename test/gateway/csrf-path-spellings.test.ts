// Issue 33, section 3: the CSRF check and the router read the same path. Every state-changing route of
// the route tables is tried as a cross-site page would: the session cookie alone, no X-CSRF-Token, and
// the path spelled in mixed case or with percent-encoded letters. None may succeed, and nothing changes.
import test from 'ava';
import { createHash } from 'node:crypto';
import type { UserRow } from '../../src/auth/index.ts';
import { canonicalPath } from '../../src/gateway/canonical-path.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let admin: UserRow;
let member: UserRow;
let cookie: string;
test.before(async () => {
  t0 = await startTestApp();
  t0.org('acme');
  admin = t0.user({ orgId: 'acme', role: 'admin' });
  member = t0.user({ orgId: 'acme', role: 'user' });
  cookie = `sextant_session=${t0.session(admin)}`;
});
test.after.always(() => t0.stop());

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CSRF = 'csrf-token-value-0123456789abcdef';

/** Bodies that the routes the issue names accept, so that only the CSRF check stands in their way. */
const BODIES: Record<string, unknown> = {
  create_api_token: { name: 'from a page' },
  update_user_profile: { name: 'Mallory' },
  admin_change_member_role: { role: 'admin' },
};

const encode = (c: string, upper = false) => `%${(upper ? c.charCodeAt(0).toString(16).toUpperCase() : c.charCodeAt(0).toString(16))}`;

/** The spellings an attacker tries: mixed case of a segment, and percent-encoded letters. */
function spellings(path: string): string[] {
  const segs = path.split('/');
  const first = segs[1]!;
  const at = (i: number, seg: string) => segs.map((s, j) => (j === i ? seg : s)).join('/');
  const lastStatic = segs.findLastIndex((s, j) => j > 1 && /^[a-z_]+$/.test(s));
  return [
    at(1, first.toUpperCase()),
    at(1, first[0]!.toUpperCase() + first.slice(1)),
    at(1, encode(first[0]!) + first.slice(1)),
    at(1, first.slice(0, -1) + encode(first.at(-1)!, true)),
    ...(segs.length > 2 && /^[a-z]/.test(segs[2]!) ? [at(2, encode(segs[2]![0]!) + segs[2]!.slice(1)), at(2, segs[2]!.toUpperCase())] : []),
    ...(lastStatic > 1 ? [at(lastStatic, segs[lastStatic]!.toUpperCase())] : []),
  ];
}

/** A concrete path: member routes name the real member, everything else a placeholder. */
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'user_id' ? member.id : `x-${name}`));

/** Every row of every table, hashed: "nothing changed" means this is equal before and after. */
function snapshot(): Map<string, string> {
  const db = t0.app.services.store.sqlite!;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[];
  return new Map(tables.map(({ name }) => [name, createHash('sha256').update(JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())).digest('hex')]));
}

const send = (method: string, path: string, body: unknown, form: boolean, headers: Record<string, string> = {}) =>
  t0.fetch(path, {
    method,
    headers: { cookie, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
  });

test.serial('no state-changing route of the route tables accepts the session cookie without X-CSRF-Token under any spelling of its path', async (t) => {
  const routes = t0.app.routes.filter((r) => UNSAFE.has(r.method));
  t.true(routes.length > 50, 'the route tables were read');
  const before = snapshot();
  const accepted: string[] = [];
  for (const r of routes) {
    const body = BODIES[r.operationId] ?? {};
    const tries = spellings(concrete(r.path)).flatMap((path) => [false, true].map((form) => ({ path, form })));
    const statuses = await Promise.all(
      tries.map(async ({ path, form }) => {
        const res = await send(r.method, path, body, form);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    for (const [i, status] of statuses.entries()) {
      // /api answers 403 (the canonical spelling) or 404 (another path); the server-rendered forms
      // outside /api check their own session-bound tokens and refuse with a 4xx.
      const refused = r.path.startsWith('/api/') ? status === 403 || status === 404 : status >= 400 && status < 500;
      if (!refused) accepted.push(`${r.method} ${tries[i]!.path} (${tries[i]!.form ? 'form' : 'json'}): ${status}`);
    }
  }
  t.deepEqual(accepted, []);
  const after = snapshot();
  t.deepEqual([...after].filter(([name, hash]) => before.get(name) !== hash).map(([name]) => name), [], 'no table changed');
});

test.serial('a percent-encoded spelling is the same path: refused for CSRF like /api, accepted with the token like /api', async (t) => {
  const path = '/%61pi/auth/user/tokens';
  const refused = await send('POST', path, { name: 'encoded' }, false);
  t.is(refused.status, 403);
  t.like(await refused.json(), { code: 'CSRF_TOKEN_INVALID' });
  const ok = await t0.fetch('/api/%61uth/user/tokens', {
    method: 'POST',
    headers: { cookie: `${cookie}; sextant_csrf=${CSRF}`, 'x-csrf-token': CSRF, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'encoded with token' }),
  });
  t.is(ok.status, 201);
});

test.serial('the four requests of the issue are refused in mixed case, and nothing of the account or the member changes', async (t) => {
  const memberPath = `/API/admin/members/${member.id}`;
  const attempts = [
    await send('POST', '/API/auth/user/tokens', { name: 'from a page' }, false),
    await send('PUT', '/Api/auth/user_profile', { name: 'Mallory' }, false),
    await send('PUT', `${memberPath}/role`, { role: 'admin' }, false),
    await send('POST', `${memberPath}/deactivate`, {}, true),
  ];
  t.deepEqual(attempts.map((r) => r.status), [404, 404, 404, 404]);
  const bearer = { authorization: `Bearer ${t0.session(admin)}` };
  const tokens = (await (await t0.fetch('/api/auth/user/tokens', { headers: bearer })).json()) as { name: string }[] | { tokens: { name: string }[] };
  t.false(JSON.stringify(tokens).includes('from a page'));
  t.not(((await (await t0.fetch('/api/auth/user_profile', { headers: bearer })).json()) as { name: string }).name, 'Mallory');
  const m = (await (await t0.fetch(`/api/admin/members/${member.id}`, { headers: bearer })).json()) as { role: string; active?: boolean; status?: string };
  t.is(m.role, 'user');
  t.not(m.active, false);
  t.not(m.status, 'deactivated');
});

test.serial('the router is case-sensitive and strict: another spelling of a route is 404, the canonical one is served', async (t) => {
  const bearer = { authorization: `Bearer ${t0.session(admin)}` };
  t.is((await t0.fetch('/api/auth/me', { headers: bearer })).status, 200);
  // GETs the router does not serve fall to the web client (not built here: 503), never to the API.
  for (const path of ['/API/auth/me', '/api/Auth/me', '/api/auth/ME', '/api/auth/me/']) t.true([404, 503].includes((await t0.fetch(path, { headers: bearer })).status), path);
  for (const path of ['/API/auth/user/tokens', '/api/auth/user/tokens/']) t.is((await t0.fetch(path, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"name":"n"}' })).status, 404, path);
  t.is((await t0.fetch('/%61pi/auth/%6De', { headers: bearer })).status, 200);
});

test.serial('canonicalPath decodes percent-encoded unreserved characters only', (t) => {
  t.is(canonicalPath('/%61pi/%41uth/x%2Dy%2e%5F%7E'), '/api/Auth/x-y._~');
  t.is(canonicalPath('/api/chats/a%2Fb%20c%25'), '/api/chats/a%2Fb%20c%25');
  t.is(canonicalPath('/api/chats/%2561'), '/api/chats/%2561');
});

test.serial('the mounted MCP endpoint and authorization server answer only their own spelling', async (t) => {
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  for (const path of ['/AI/mcp', '/ai/MCP', '/ai/mcp/']) t.is((await t0.fetch(path, { method: 'POST', headers: { ...json, cookie }, body: '{}' })).status, 404, path);
  const reg = { client_name: 'Spelled', redirect_uris: ['http://127.0.0.1:9/cb'], application_type: 'native', token_endpoint_auth_method: 'none' };
  for (const path of ['/OAUTH/reg', '/Oauth/reg']) t.is((await t0.fetch(path, { method: 'POST', headers: json, body: JSON.stringify(reg) })).status, 404, path);
  // A percent-encoded spelling is the same path, under the same registration limit.
  t.is((await t0.fetch('/%6Fauth/reg', { method: 'POST', headers: json, body: JSON.stringify(reg) })).status, 201);
});
