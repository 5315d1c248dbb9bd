// Migration 0102 (issue 33): domains claimed before email-domain verification existed were never
// proven. Upgrading turns each into a pending claim of its organization, with a token of its own, and
// leaves none routing sign-ins or sign-ups; on SQLite and PostgreSQL alike.
import test from 'ava';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { listMigrations, migrate } from '../../src/store/migrate.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { pgExecutor } from '../../src/store/pg-executor.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';

const before = (dialect: 'sqlite' | 'postgres') => listMigrations(dialect).filter((m) => m.id < 102);

test('sqlite: domains claimed before the upgrade become pending claims and route nothing', (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  migrate(db, before('sqlite'));
  db.exec("INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0), ('zeta', 'Zeta', 0)");
  db.exec("INSERT INTO org_email_domains (domain, org_id) VALUES ('Acme.test', 'acme'), ('zeta.test', 'zeta'), ('zeta.example', 'zeta')");
  migrate(db);
  t.is(db.prepare('SELECT count(*) FROM org_email_domains').pluck().get(), 0);
  const claims = db.prepare('SELECT org_id, domain, token FROM org_email_domain_claims ORDER BY domain').all() as { org_id: string; domain: string; token: string }[];
  t.deepEqual(claims.map((c) => [c.org_id, c.domain]), [['acme', 'acme.test'], ['zeta', 'zeta.example'], ['zeta', 'zeta.test']]);
  for (const c of claims) t.regex(c.token, /^sxt-verify-[0-9a-f]{32}$/);
  t.is(new Set(claims.map((c) => c.token)).size, 3);
});

test('postgres: domains claimed before the upgrade become pending claims and route nothing', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  await migratePostgres(pg.db, before('postgres'));
  const x = pgExecutor(pg.db);
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0), ('zeta', 'Zeta', 0)`);
  await x.run(sql`INSERT INTO org_email_domains (domain, org_id) VALUES ('Acme.test', 'acme'), ('zeta.test', 'zeta'), ('zeta.example', 'zeta')`);
  await migratePostgres(pg.db);
  t.is((await x.all(sql`SELECT domain FROM org_email_domains`)).length, 0);
  const claims = await x.all(sql<{ org_id: string; domain: string; token: string }>`SELECT org_id, domain::text AS domain, token FROM org_email_domain_claims ORDER BY domain COLLATE "C"`);
  t.deepEqual(claims.map((c) => [c.org_id, c.domain]), [['acme', 'acme.test'], ['zeta', 'zeta.example'], ['zeta', 'zeta.test']]);
  for (const c of claims) t.regex(c.token, /^sxt-verify-[0-9a-f]{32}$/);
  t.is(new Set(claims.map((c) => c.token)).size, 3);
});
