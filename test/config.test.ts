import test from 'ava';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'sextant-config-'));

test('defaults apply when nothing is set', (t) => {
  const dir = tempDir();
  const c = loadConfig({ SEXTANT_DATA_DIR: dir });
  t.is(c.port, 8080);
  t.is(c.host, '127.0.0.1');
  t.is(c.baseUrl, 'http://127.0.0.1:8080');
  t.true(c.seedDemo);
  t.is(c.logLevel, 'info');
});

test('unset secrets are generated once, kept with mode 600, and reused on the next start with a warning', (t) => {
  const dir = tempDir();
  const first = loadConfig({ SEXTANT_DATA_DIR: dir });
  const second = loadConfig({ SEXTANT_DATA_DIR: dir });
  t.deepEqual(first.secrets, second.secrets);
  t.is(statSync(join(dir, 'secrets.json')).mode & 0o777, 0o600);
  t.true(first.warnings.some((w) => w.includes('SEXTANT_JWT_SECRET')));
  t.is(Buffer.from(first.secrets.encryptionKey, 'base64').length, 32);
});

test('secrets from the environment win and are not written to disk', (t) => {
  const dir = tempDir();
  const jwt = 'x'.repeat(40);
  const c = loadConfig({
    SEXTANT_DATA_DIR: dir,
    SEXTANT_JWT_SECRET: jwt,
    SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    SEXTANT_COOKIE_KEYS: 'a,b',
  });
  t.is(c.secrets.jwtKey, jwt);
  t.deepEqual(c.secrets.cookieKeys, ['a', 'b']);
  t.throws(() => readFileSync(join(dir, 'secrets.json')));
  t.false(c.warnings.some((w) => w.includes('SEXTANT_JWT_SECRET')));
});

test('invalid settings fail at start with every bad variable named', (t) => {
  const err = t.throws(() => loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_PORT: 'abc', SEXTANT_LOG_LEVEL: 'loud' }));
  t.regex(err.message, /SEXTANT_PORT/);
  t.regex(err.message, /SEXTANT_LOG_LEVEL/);
});

test('a short encryption key is refused', (t) => {
  t.throws(() => loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_ENCRYPTION_KEY: 'c2hvcnQ=' }), { message: /32 bytes/ });
});

test('a non-https public base URL produces a warning', (t) => {
  const c = loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_BASE_URL: 'http://sextant.example.com' });
  t.true(c.warnings.some((w) => w.includes('not https')));
});

test('warehouse roots resolve against the data directory, once each, and may not nest', (t) => {
  const dir = tempDir();
  t.deepEqual(loadConfig({ SEXTANT_DATA_DIR: dir, SEXTANT_WAREHOUSE_ROOTS: 'a, /srv/wh ,a,/srv/wh2' }).data.warehouseRoots, [join(dir, 'a'), '/srv/wh', '/srv/wh2']);
  // An organization's folder in the inner root would lie inside another organization's folder of the outer one.
  for (const roots of ['/srv/wh,/srv/wh/org_a', '/srv/wh/x,/srv/wh', `${dir},warehouse`]) {
    t.throws(() => loadConfig({ SEXTANT_DATA_DIR: dir, SEXTANT_WAREHOUSE_ROOTS: roots }), { message: /SEXTANT_WAREHOUSE_ROOTS: .* lies inside .*must not nest/ }, roots);
  }
});

test('evaluation runs ask 4 questions at once by default; the bound and the question timeout are validated', (t) => {
  t.deepEqual(loadConfig({ SEXTANT_DATA_DIR: tempDir() }).evaluations, { concurrency: 4, questionTimeoutMs: 300_000 });
  t.deepEqual(loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_EVAL_CONCURRENCY: '1', SEXTANT_EVAL_QUESTION_TIMEOUT_MS: '5000' }).evaluations, { concurrency: 1, questionTimeoutMs: 5000 });
  const err = t.throws(() => loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_EVAL_CONCURRENCY: '0', SEXTANT_EVAL_QUESTION_TIMEOUT_MS: '10' }));
  t.regex(err.message, /SEXTANT_EVAL_CONCURRENCY/);
  t.regex(err.message, /SEXTANT_EVAL_QUESTION_TIMEOUT_MS/);
});

test('the query processes kept warm default to two, may be set to none, and refuse a negative count', (t) => {
  const dir = tempDir();
  t.is(loadConfig({ SEXTANT_DATA_DIR: dir }).data.queryIdleProcesses, 2);
  t.is(loadConfig({ SEXTANT_DATA_DIR: dir, SEXTANT_QUERY_IDLE_PROCESSES: '0' }).data.queryIdleProcesses, 0);
  t.is(loadConfig({ SEXTANT_DATA_DIR: dir, SEXTANT_QUERY_IDLE_PROCESSES: '8' }).data.queryIdleProcesses, 8);
  t.throws(() => loadConfig({ SEXTANT_DATA_DIR: dir, SEXTANT_QUERY_IDLE_PROCESSES: '-1' }), { message: /SEXTANT_QUERY_IDLE_PROCESSES/ });
});

test('a new service database connection may take 10 s to set up by default; 0 lifts the limit, a negative one is refused', (t) => {
  t.is(loadConfig({ SEXTANT_DATA_DIR: tempDir() }).databaseConnectTimeoutMs, 10_000);
  t.is(loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_DATABASE_CONNECT_TIMEOUT_MS: '0' }).databaseConnectTimeoutMs, 0);
  t.throws(() => loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_DATABASE_CONNECT_TIMEOUT_MS: '-1' }), { message: /SEXTANT_DATABASE_CONNECT_TIMEOUT_MS/ });
});

test('SEXTANT_DATABASE_URL must be a postgres:// URL, and the refusal never repeats the value', (t) => {
  t.is(loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_DATABASE_URL: 'postgresql://u:p@db:5432/sextant' }).databaseUrl, 'postgresql://u:p@db:5432/sextant');
  t.is(loadConfig({ SEXTANT_DATA_DIR: tempDir() }).databaseUrl, undefined);
  const err = t.throws(() => loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_DATABASE_URL: 'mysql://u:secret-pw@db/sextant' }));
  t.regex(err!.message, /SEXTANT_DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
  t.notRegex(err!.message, /secret-pw/);
});

test('SEXTANT_DNS_SERVERS takes IP addresses with optional ports and refuses names', (t) => {
  t.is(loadConfig({ SEXTANT_DATA_DIR: tempDir() }).dnsServers, undefined);
  t.deepEqual(loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_DNS_SERVERS: '127.0.0.1:5353, 10.0.0.2,[::1]:53,::1' }).dnsServers, ['127.0.0.1:5353', '10.0.0.2', '[::1]:53', '::1']);
  for (const bad of ['dns.example.com', '127.0.0.1:0', '127.0.0.1:99999', '1.2.3']) {
    t.throws(() => loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_DNS_SERVERS: bad }), { message: /SEXTANT_DNS_SERVERS/ }, bad);
  }
});

test('the outbound allow list is empty by default and takes host names, addresses and CIDRs, refusing anything else', (t) => {
  t.deepEqual(loadConfig({ SEXTANT_DATA_DIR: tempDir() }).outboundAllow, []);
  const c = loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_OUTBOUND_ALLOW: ' idp.corp.example , 10.20.0.0/16,::1, fd00::/8,git-internal ' });
  t.deepEqual(c.outboundAllow, ['idp.corp.example', '10.20.0.0/16', '::1', 'fd00::/8', 'git-internal']);
  for (const bad of ['10.0.0.0/33', 'http://idp.corp.example', 'idp.corp.example:8443', '*', '1.2.3.4/8/1', 'a b', '::1/129']) {
    const err = t.throws(() => loadConfig({ SEXTANT_DATA_DIR: tempDir(), SEXTANT_OUTBOUND_ALLOW: bad }), undefined, bad);
    t.regex(err!.message, /SEXTANT_OUTBOUND_ALLOW/);
  }
});
