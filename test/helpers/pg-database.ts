// A fresh PostgreSQL database per test file on the local server (127.0.0.1:5432, user postgres,
// trust): skipped with a message when the server is absent, except under CI=true where it must run.
// A migrated one is a copy of a template migrated once per set of migrations (CREATE DATABASE ...
// TEMPLATE): a copy takes a tenth of the time the migrations take, and writes far less.
import type { ExecutionContext } from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { listMigrations } from '../../src/store/migrate.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { openPostgres, type PgStore } from '../../src/store/pg-open.ts';
import { HANG_MS } from './patience.ts';

export const SKIP_PG_STORE = 'PostgreSQL is not reachable on 127.0.0.1:5432 (user postgres); PostgreSQL store tests skipped';

/** The server, from a test: an absent one refuses at once, a busy one may take long to answer (see patience.ts). */
export const PG_TEST_CONNECT_TIMEOUT_MS = HANG_MS;

const admin = () => new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', connectionTimeoutMillis: PG_TEST_CONNECT_TIMEOUT_MS });

/**
 * How the database orders text. `linguistic` (the default): ICU en-US, as a server initialised under
 * en_US.UTF-8 (the official image, most hosted services) orders it: case and punctuation weigh less
 * than letters, so `apple` < `Banana`; tests run where production mostly does, so code that leans on
 * the database's collation fails here. `bytes`: the test server's own (C.UTF-8), which orders as SQLite.
 */
export type PgCollation = 'bytes' | 'linguistic';

export interface PgDatabaseOptions {
  collation?: PgCollation;
  /** With every migration of the code applied (as the service's store opens it); default: empty. */
  migrated?: boolean;
}

const CREATE_OPTIONS: Record<PgCollation, string> = {
  bytes: '',
  linguistic: " TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'",
};

/** Any constant: the key of the advisory lock under which test processes build the shared templates. */
const TEMPLATE_LOCK = 0x5e7a_7e57;

/** The template's name: its collation and a hash of the migrations, so that a changed migration gets a new one. */
function templateName(collation: PgCollation): string {
  const hash = createHash('sha256');
  for (const m of listMigrations('postgres')) hash.update(`${m.id}\0${m.name}\0${m.sql}\0`);
  return `sextant_tpl_${collation}_${hash.digest('hex').slice(0, 16)}`;
}

/**
 * Builds the migrated template once per server: test files in other processes wait on the lock, then
 * find it. It is built under another name and renamed when complete, so no copy is taken of a half.
 */
async function buildTemplate(client: pg.Client, collation: PgCollation): Promise<string> {
  const name = templateName(collation);
  await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
  try {
    if ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await client.query(`CREATE DATABASE ${building}${CREATE_OPTIONS[collation]}`);
    const store = openTestPostgres(`postgres://postgres@127.0.0.1:5432/${building}`, { max: 1 });
    try {
      await migratePostgres(store.db);
    } finally {
      await store.close();
    }
    await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
  }
}

/** Per test process: the templates it made sure of. */
const templates = new Map<PgCollation, Promise<string>>();

function migratedTemplate(client: pg.Client, collation: PgCollation): Promise<string> {
  let name = templates.get(collation);
  if (!name) {
    name = buildTemplate(client, collation);
    // A failed build is not remembered: the next test tries again (and reports its own failure).
    name.catch(() => templates.delete(collation));
    templates.set(collation, name);
  }
  return name;
}

/** A database on the local server (empty unless `migrated`), or undefined when PostgreSQL is absent (an error under CI=true). */
export async function createPgDatabase({ collation = 'linguistic', migrated = false }: PgDatabaseOptions = {}): Promise<{ url: string; name: string; drop(): Promise<void> } | undefined> {
  const client = admin();
  try {
    await client.connect();
  } catch (err) {
    if (process.env['CI'] === 'true') throw err;
    return undefined;
  }
  const name = `sextant_t_${randomBytes(6).toString('hex')}`;
  try {
    const from = migrated ? ` TEMPLATE ${await migratedTemplate(client, collation)}` : CREATE_OPTIONS[collation];
    await client.query(`CREATE DATABASE ${name}${from}`);
  } finally {
    await client.end();
  }
  const drop = async () => {
    const c = admin();
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
  return { url: `postgres://postgres@127.0.0.1:5432/${name}`, name, drop };
}

/** openPostgres as tests use it: a connection waits as long as a busy server takes (see patience.ts). */
export function openTestPostgres(url: string, options: { max?: number } = {}): PgStore {
  return openPostgres(url, { connectTimeoutMs: PG_TEST_CONNECT_TIMEOUT_MS, ...options });
}

/** Creates a database (empty unless `migrated`) and returns its URL (dropped after the test), or undefined when PostgreSQL is absent. */
export async function freshPgDatabase(t: Pick<ExecutionContext, 'teardown'>, options: PgDatabaseOptions = {}): Promise<string | undefined> {
  const db = await createPgDatabase(options);
  if (!db) return undefined;
  t.teardown(db.drop);
  return db.url;
}
