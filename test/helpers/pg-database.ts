// A fresh PostgreSQL database per test file on the local server (127.0.0.1:5432, user postgres,
// trust): skipped with a message when the server is absent, except under CI=true where it must run.
import type { ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const SKIP_PG_STORE = 'PostgreSQL is not reachable on 127.0.0.1:5432 (user postgres); PostgreSQL store tests skipped';

const admin = () => new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 3000 });

/**
 * How the database orders text. `linguistic` (the default): ICU en-US, as a server initialised under
 * en_US.UTF-8 (the official image, most hosted services) orders it: case and punctuation weigh less
 * than letters, so `apple` < `Banana`; tests run where production mostly does, so code that leans on
 * the database's collation fails here. `bytes`: the test server's own (C.UTF-8), which orders as SQLite.
 */
export type PgCollation = 'bytes' | 'linguistic';

const CREATE_OPTIONS: Record<PgCollation, string> = {
  bytes: '',
  linguistic: " TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'",
};

/** An empty database on the local server, or undefined when PostgreSQL is absent (an error under CI=true). */
export async function createPgDatabase({ collation = 'linguistic' }: { collation?: PgCollation } = {}): Promise<{ url: string; name: string; drop(): Promise<void> } | undefined> {
  const client = admin();
  try {
    await client.connect();
  } catch (err) {
    if (process.env['CI'] === 'true') throw err;
    return undefined;
  }
  const name = `sextant_t_${randomBytes(6).toString('hex')}`;
  try {
    await client.query(`CREATE DATABASE ${name}${CREATE_OPTIONS[collation]}`);
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

/** Creates an empty database and returns its URL (dropped after the test), or undefined when PostgreSQL is absent. */
export async function freshPgDatabase(t: ExecutionContext, options: { collation?: PgCollation } = {}): Promise<string | undefined> {
  const db = await createPgDatabase(options);
  if (!db) return undefined;
  t.teardown(db.drop);
  return db.url;
}
