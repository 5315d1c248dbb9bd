// Issue 33 §1 for raw TCP: a freshly registered organization's admin must not point a warehouse
// connection at the service's own database, cloud metadata or other internal hosts. Every refusal is
// checked against a listening loopback socket that records each TCP connection it receives.
import test from 'ava';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { fakeDns } from '../../helpers/internal-server.ts';

interface Recorder {
  port: number;
  connections: number;
}

let guarded: TestApp;
let allowed: TestApp;
let server: Server;
const recorder: Recorder = { port: 0, connections: 0 };
const sockets = new Set<Socket>();

const DNS = { 'warehouse.attacker.example': '127.0.0.1', 'public.example.com': '93.184.216.34', 'internal.corp.example': '127.0.0.1' };

test.before(async () => {
  // Listens on every interface, so 127.0.0.1, ::ffff:127.0.0.1, 0.0.0.0 and localhost would all reach it.
  server = createServer((socket) => {
    recorder.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  recorder.port = (server.address() as AddressInfo).port;
  guarded = await startTestApp({ SEXTANT_OUTBOUND_ALLOW: '' }, { outboundLookup: fakeDns(DNS) });
  allowed = await startTestApp({ SEXTANT_OUTBOUND_ALLOW: '127.0.0.1,internal.corp.example' }, { outboundLookup: fakeDns(DNS) });
});

test.after.always(async () => {
  await Promise.all([guarded?.stop(), allowed?.stop()]);
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const call = (app: TestApp, method: string, path: string, token: string, body?: unknown) =>
  app.fetch(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });

/** The admin of an organization of its own, next to a first organization that already exists. */
function strangerAdmin(app: TestApp): { org: string; token: string } {
  app.org('acme');
  const org = app.org();
  return { org, token: app.session(app.user({ orgId: org, role: 'admin' })) };
}

const storedCount = (app: TestApp, org: string) => (app.app.services.store.sqlite!.prepare('SELECT count(*) AS n FROM connections WHERE org_id = ?').get(org) as { n: number }).n;

const INTERNAL_HOSTS = ['127.0.0.1', 'localhost', '0.0.0.0', '[::ffff:127.0.0.1]', '::ffff:127.0.0.1', '::1', '2130706433', '169.254.169.254', '10.0.0.1', '100.64.0.1', 'warehouse.attacker.example'];
const TYPES = ['postgresql', 'mysql'] as const;

async function refused(t: { is(a: unknown, b: unknown, m?: string): void; regex(s: string, r: RegExp): void }, res: Response, what: string) {
  t.is(res.status, 422, what);
  const body = (await res.json()) as { code: string; detail: { msg: string }[] };
  t.is(body.code, 'CONNECTION_HOST_REFUSED', what);
  t.regex(body.detail[0]?.msg ?? '', /SEXTANT_OUTBOUND_ALLOW/);
}

for (const type of TYPES) {
  test.serial(`a stranger's admin cannot create a ${type} connection at an internal address in any spelling, and nothing is stored or connected to`, async (t) => {
    const { org, token } = strangerAdmin(guarded);
    const before = recorder.connections;
    for (const host of INTERNAL_HOSTS) {
      const res = await call(guarded, 'POST', '/api/connections', token, { name: `wh ${host}`, type, settings: { host, port: recorder.port, user: 'x', database: 'x' }, password: 'p' });
      await refused(t, res, `${type} at ${host}`);
    }
    t.is(storedCount(guarded, org), 0);
    t.is(recorder.connections, before, 'no TCP connection was made');
  });

  test.serial(`a stranger's admin cannot move a ${type} connection to an internal address, and the stored host stays`, async (t) => {
    const { org, token } = strangerAdmin(guarded);
    const created = await call(guarded, 'POST', '/api/connections', token, { id: 'wh', name: 'wh', type, settings: { host: 'public.example.com', port: recorder.port, user: 'x', database: 'x' } });
    t.is(created.status, 201);
    const before = recorder.connections;
    for (const host of INTERNAL_HOSTS) {
      const res = await call(guarded, 'PATCH', '/api/connections/wh', token, { settings: { host, port: recorder.port, user: 'x', database: 'x' } });
      await refused(t, res, `${type} moved to ${host}`);
    }
    const row = guarded.app.services.store.sqlite!.prepare('SELECT settings FROM connections WHERE org_id = ? AND id = ?').get(org, 'wh') as { settings: string };
    t.is((JSON.parse(row.settings) as { host: string }).host, 'public.example.com');
    t.is(recorder.connections, before, 'no TCP connection was made');
  });

  test.serial(`a ${type} row stored at an internal address before the rule is refused when tested and when queried, without connecting`, async (t) => {
    const { org, token } = strangerAdmin(guarded);
    const db = guarded.app.services.store.sqlite!;
    const before = recorder.connections;
    for (const [i, host] of INTERNAL_HOSTS.entries()) {
      db.prepare('INSERT INTO connections (org_id, id, name, type, settings, secret_sealed, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, NULL, 0, 0)').run(
        org,
        `old${i}`,
        `old ${i}`,
        type,
        JSON.stringify({ host, port: recorder.port, user: 'x', database: 'x' }),
      );
      await refused(t, await call(guarded, 'POST', `/api/connections/old${i}/test`, token), `test of ${host}`);
      const query = await call(guarded, 'POST', '/api/execute_query', token, { sql: 'SELECT 1 AS one', connection_id: `old${i}` });
      t.not(query.status, 200, `query at ${host}`);
      t.true(query.status < 500, `query at ${host} answers ${query.status}`);
      t.is(((await query.json()) as { code?: string }).code, 'CONNECTION_HOST_REFUSED', `query at ${host}`);
    }
    t.is(recorder.connections, before, 'no TCP connection was made');
  });

  test.serial(`with the address or the name allowed by the operator, a ${type} connection at loopback is saved and connected to`, async (t) => {
    const { org, token } = strangerAdmin(allowed);
    for (const host of ['127.0.0.1', 'internal.corp.example']) {
      const before = recorder.connections;
      const id = host === '127.0.0.1' ? 'by_address' : 'by_name';
      const res = await call(allowed, 'POST', '/api/connections', token, { id, name: id, type, settings: { host, port: recorder.port, user: 'x', database: 'x' } });
      t.is(res.status, 201, host);
      const tested = await call(allowed, 'POST', `/api/connections/${id}/test`, token);
      t.is(tested.status, 200);
      t.false(((await tested.json()) as { ok: boolean }).ok, 'the recorder is no warehouse');
      t.true(recorder.connections > before, `${host} was connected to`);
    }
    t.is(storedCount(allowed, org), 2);
    // Allowing 127.0.0.1 allows neither the metadata address nor the unspecified one.
    for (const host of ['169.254.169.254', '0.0.0.0', '10.0.0.1']) {
      await refused(t, await call(allowed, 'POST', '/api/connections', token, { name: host, type, settings: { host, port: recorder.port } }), host);
    }
  });
}

test.serial('an analyst cannot create or test connections, and another organization\'s connection is not found', async (t) => {
  const { token: admin } = strangerAdmin(allowed);
  const other = strangerAdmin(allowed);
  await call(allowed, 'POST', '/api/connections', other.token, { id: 'theirs', name: 'theirs', type: 'postgresql', settings: { host: '127.0.0.1', port: recorder.port } });
  const analyst = allowed.session(allowed.user({ orgId: other.org, role: 'user' }));
  t.is((await call(allowed, 'POST', '/api/connections', analyst, { name: 'x', type: 'postgresql', settings: { host: '127.0.0.1' } })).status, 403);
  t.is((await call(allowed, 'POST', '/api/connections/theirs/test', analyst)).status, 403);
  t.is((await call(allowed, 'POST', '/api/connections/theirs/test', admin)).status, 404);
  t.is((await call(allowed, 'PATCH', '/api/connections/theirs', admin, { settings: { host: '10.0.0.1' } })).status, 404);
  t.is((await allowed.fetch('/api/connections', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 401);
  const invalid = await call(allowed, 'POST', '/api/connections', admin, { name: 'x', type: 'postgresql', settings: { host: 5 } });
  t.is(invalid.status, 422);
  t.true(Array.isArray(((await invalid.json()) as { detail: unknown }).detail), 'HTTPValidationError shape');
});
