// Test harness: a real gateway on loopback with its own data directory, a fake clock and no demo data.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppDeps } from '../../src/app.ts';
import { insertTokenQuery, membershipUpsert, organizationInsert, userInsert, sessionWrite, SESSION_TTL_SECONDS, type Permission, type Role, type TokenKind, type UserRow } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { listen, type RunningServer } from '../../src/server.ts';
import { sqliteExecutor, type Db } from '../../src/store/index.ts';
import { sqliteNow } from './sqlite-now.ts';
import { NEW_ORG_SETTINGS, orgSettingsQuery, saveOrgSettingsQuery } from '../../src/auth/members/org-settings-rows.ts';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { createPgDatabase, type PgCollation } from './pg-database.ts';
import { TEST_BCRYPT_COST } from './bcrypt-cost.ts';
import { HANG_MS } from './patience.ts';
import { copyMigratedDatabase } from './sqlite-template.ts';

export interface TestApp {
  app: App;
  url: string;
  /** The separate metrics listener (SEXTANT_METRICS_PORT, e.g. '0' for a free port), when configured. */
  metricsUrl: string | undefined;
  clock: FakeClock;
  config: Config;
  /** Every log line written, parsed. */
  logs: Record<string, unknown>[];
  /** fetch relative to the server. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Creates an organization, or returns the existing one with that id. Its production is written
   * directly (the setting sign-up turns on is off) unless `productionThroughEnvironments` asks for it.
   */
  org(id?: string, opts?: OrgOptions): string;
  /** Creates a user who is a member of `orgId` with a role. */
  user(opts?: { orgId?: string; role?: Role; permissions?: Permission[]; email?: string; passwordHash?: string | null }): UserRow;
  /** A session JWT for the user in an organization (their first one by default). */
  session(user: UserRow, orgId?: string): string;
  /** Inserts an API, CLI or MCP token straight into the store and returns its value. */
  token(user: UserRow, kind?: TokenKind, orgId?: string): string;
  /** The same fixtures through the executor: they work on both dialects (the synchronous ones on SQLite only). */
  make: AsyncFixtures;
  stop(): Promise<void>;
}

export interface OrgOptions {
  baseOrgId?: string;
  mfaEnforced?: boolean;
  /** The organization setting "changes to production only through environments"; default off. */
  productionThroughEnvironments?: boolean;
}

export interface AsyncFixtures {
  org(id?: string, opts?: OrgOptions): Promise<string>;
  user(opts?: Parameters<TestApp['user']>[0]): Promise<UserRow>;
  session(user: UserRow, orgId?: string): Promise<string>;
  token(user: UserRow, kind?: TokenKind, orgId?: string): Promise<string>;
}

let counter = 0;

/** The loopback addresses the test servers listen on, allowed past the outbound guard by default. */
export const LOOPBACK_SERVERS = '127.0.0.1,::1';

/** A free loopback port, so the base URL in the configuration is the real one. */
export async function freePort(): Promise<number> {
  // Below Linux's ephemeral range (32768 and up): a port the kernel hands out picks it for outgoing
  // connections too, and one taken by another test's connection between this check and the
  // gateway's listen failed a CI run with EADDRINUSE. Only listeners use these, and the check sees them.
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

type TestDeps = Pick<AppDeps, 'extraRoutes' | 'tableDocs' | 'mailer' | 'chatSources' | 'agentPorts' | 'llmProvider' | 'mcpPorts' | 'webDir' | 'outboundLookup'>;

/**
 * Starts a gateway for one test. `env` overrides configuration variables (SEXTANT_DATABASE_URL serves from PostgreSQL).
 * The test servers the gateway calls (OIDC IdP, git remote, GitHub API fake) listen on loopback, which the
 * outbound guard refuses: they are allowed here, explicitly; tests of the guard pass `SEXTANT_OUTBOUND_ALLOW: ''`.
 */
export async function startTestApp(env: Record<string, string> = {}, deps: TestDeps = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-test-'));
  const port = await freePort();
  const config = loadConfig({
    SEXTANT_DATA_DIR: dataDir,
    SEXTANT_PORT: String(port),
    SEXTANT_LOG_LEVEL: 'info',
    SEXTANT_SEED_DEMO: 'false',
    SEXTANT_JWT_SECRET: 'test-jwt-secret-test-jwt-secret-0123456789',
    SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    SEXTANT_COOKIE_KEYS: 'test-cookie-key',
    SEXTANT_OUTBOUND_ALLOW: LOOPBACK_SERVERS,
    SEXTANT_DATABASE_CONNECT_TIMEOUT_MS: String(HANG_MS),
    SEXTANT_BCRYPT_COST: String(TEST_BCRYPT_COST),
    ...env,
  });
  // A fresh SQLite store starts as a copy of the migrated template (sqlite-template.ts says why).
  if (!config.databaseUrl && config.dataDir === dataDir) copyMigratedDatabase(join(dataDir, 'sextant.db'));
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  const clock = new FakeClock();
  // No web client unless a test asks for one: whether dist/web exists must not change what a test sees.
  const app = await createApp(config, { webDir: join(dataDir, 'web-not-built'), ...deps, clock, log: createLogger('info', sink) });
  // The demo changes production only through environments; tests write it directly unless they turn it on.
  if (config.seedDemo) await app.services.executor.run(sql`UPDATE org_settings SET production_through_environments = 0 WHERE org_id = ${DEMO_ORG_ID}`);
  const running: RunningServer = await listen(app, { host: '127.0.0.1', port, graceMs: 1000 });
  const db = (): Db => {
    const sqlite = app.services.store.sqlite;
    if (!sqlite) throw new Error('the synchronous fixtures (t.org, t.user, t.session, t.token) run on SQLite only: use t.make on PostgreSQL');
    return sqlite;
  };
  const firstOrg = new Map<string, string>();
  const t: TestApp = {
    app,
    url: running.url,
    metricsUrl: running.metricsUrl,
    clock,
    config,
    logs,
    fetch: (path, init) => fetch(running.url + path, init),
    org(id = `org${++counter}`, { productionThroughEnvironments = false, ...opts } = {}) {
      if (!db().prepare('SELECT 1 FROM organizations WHERE id = ?').get(id)) {
        sqliteNow(db(), (x) => organizationInsert(x, clock, { id, name: `Org ${id}`, ...opts }));
        if (productionThroughEnvironments) sqliteNow(db(), () => protectedSettings(id, clock.now()));
      }
      return id;
    },
    user({ orgId = t.org('acme'), role = 'user', permissions = [], email = `user${++counter}@example.com`, passwordHash = null } = {}) {
      const user = sqliteNow(db(), (x) => userInsert(x, clock, { email, name: email.split('@')[0]!, passwordHash, emailVerified: true }))[0]!;
      sqliteNow(db(), (x) => membershipUpsert(x, clock, { userId: user.id, orgId, role, permissions }));
      firstOrg.set(user.id, orgId);
      return user;
    },
    session(user, orgId = firstOrg.get(user.id)!) {
      // Stored at once, so that the many callers stay synchronous; the lifetime as startSession decides it.
      const ttlSeconds = sqliteNow(db(), () => orgSettingsQuery(orgId))[0]?.session_lifetime_seconds ?? SESSION_TTL_SECONDS;
      const { insert, session } = sessionWrite({ store: sqliteExecutor(db()), clock, jwtKey: config.secrets.jwtKey }, user, orgId, { ttlSeconds });
      sqliteNow(db(), () => insert);
      return session.token;
    },
    token(user, kind = 'api', orgId = firstOrg.get(user.id)!) {
      const scopes = kind === 'mcp' ? ['mcp:*'] : ['api:full'];
      // On SQLite the executor has stored the row when `run` returns: the helper stays synchronous.
      const x = sqliteExecutor(db());
      const { value, insert } = insertTokenQuery(x, clock, { userId: user.id, orgId, kind, scopes });
      void x.run(insert);
      return value;
    },
    make: asyncFixtures(app, config, firstOrg),
    async stop() {
      await running.stop();
      // A run's last writes (usage, journal) may still land while the folder is removed: retry ENOTEMPTY as rm -rf would.
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
  return t;
}

/**
 * The settings of an organization whose production changes only through environments, as sign-up
 * writes them. Without a row the setting is off: what the many tests that write production need.
 */
function protectedSettings(orgId: string, now: number) {
  return saveOrgSettingsQuery(orgId, NEW_ORG_SETTINGS, now);
}

/** Fixtures through the app's executor, awaited: the same rows as the synchronous ones, on either dialect. */
function asyncFixtures(app: App, config: Config, firstOrg: Map<string, string>): AsyncFixtures {
  const x = app.services.executor;
  const clock = app.services.clock;
  // Concurrent tests asking for one organization share its creation.
  const orgs = new Map<string, Promise<string>>();
  const make: AsyncFixtures = {
    org(id = `org${++counter}`, { productionThroughEnvironments = false, ...opts } = {}) {
      const created = orgs.get(id) ?? x.batch([organizationInsert(x, clock, { id, name: `Org ${id}`, ...opts }), ...(productionThroughEnvironments ? [protectedSettings(id, clock.now())] : [])]).then(() => id);
      orgs.set(id, created);
      return created;
    },
    async user({ orgId, role = 'user', permissions = [], email = `user${++counter}@example.com`, passwordHash = null } = {}) {
      const org = orgId ?? (await make.org('acme'));
      const user = (await x.one(userInsert(x, clock, { email, name: email.split('@')[0]!, passwordHash, emailVerified: true })))!;
      await x.run(membershipUpsert(x, clock, { userId: user.id, orgId: org, role, permissions }));
      firstOrg.set(user.id, org);
      return user;
    },
    async session(user, orgId = firstOrg.get(user.id)!) {
      const ttlSeconds = (await x.one(orgSettingsQuery(orgId)))?.session_lifetime_seconds ?? SESSION_TTL_SECONDS;
      const { insert, session } = sessionWrite({ store: x, clock, jwtKey: config.secrets.jwtKey }, user, orgId, { ttlSeconds });
      await x.run(insert);
      return session.token;
    },
    async token(user, kind = 'api', orgId = firstOrg.get(user.id)!) {
      const { value, insert } = insertTokenQuery(x, clock, { userId: user.id, orgId, kind, scopes: kind === 'mcp' ? ['mcp:*'] : ['api:full'] });
      await x.run(insert);
      return value;
    },
  };
  return make;
}

/**
 * A test app served from a fresh, migrated PostgreSQL database (dropped at stop), or undefined when
 * PostgreSQL is absent (an error under CI=true). Use the asynchronous fixtures (`t.make`).
 */
export async function startPgTestApp(env: Record<string, string> = {}, deps: TestDeps = {}, options: { collation?: PgCollation } = {}): Promise<TestApp | undefined> {
  const database = await createPgDatabase({ ...options, migrated: true });
  if (!database) return undefined;
  const t = await startTestApp({ SEXTANT_DATABASE_URL: database.url, ...env }, deps).catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });
  const stop = t.stop;
  t.stop = async () => {
    await stop();
    await database.drop();
  };
  return t;
}
