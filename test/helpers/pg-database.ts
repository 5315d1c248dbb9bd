// A fresh PostgreSQL database per test file on the local server (127.0.0.1:5432, user postgres,
// trust): skipped with a message when the server is absent, except under CI=true where it must run.
import type { ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const SKIP_PG_STORE = 'PostgreSQL is not reachable on 127.0.0.1:5432 (user postgres); PostgreSQL store tests skipped';

const admin = () => new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 3000 });

/** An empty database on the local server, or undefined when PostgreSQL is absent (an error under CI=true). */
export async function createPgDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> } | undefined> {
  const client = admin();
  try {
    await client.connect();
  } catch (err) {
    if (process.env['CI'] === 'true') throw err;
    return undefined;
  }
  const name = `sextant_t_${randomBytes(6).toString('hex')}`;
  try {
    await client.query(`CREATE DATABASE ${name}`);
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
export async function freshPgDatabase(t: ExecutionContext): Promise<string | undefined> {
  const db = await createPgDatabase();
  if (!db) return undefined;
  t.teardown(db.drop);
  return db.url;
}
