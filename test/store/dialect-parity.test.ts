// The two dialects' migrations stay twins: every SQLite migration has a PostgreSQL one with the same id
// and name (and the reverse), and after all of them every SQLite table exists on PostgreSQL with the
// same columns, column kinds, primary key, named indexes, foreign keys and triggers.
import test from 'ava';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { listMigrations, migrate, type Migration } from '../../src/store/index.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';

/** Migrations present in one dialect only, or named differently. */
function unpaired(sqlite: Migration[], postgres: Migration[]): string[] {
  const key = (m: Migration) => `${String(m.id).padStart(4, '0')}_${m.name}`;
  const pg = new Set(postgres.map(key));
  const lite = new Set(sqlite.map(key));
  return [...[...lite].filter((k) => !pg.has(k)).map((k) => `${k} has no PostgreSQL twin`), ...[...pg].filter((k) => !lite.has(k)).map((k) => `${k} has no SQLite twin`)];
}

test('every SQLite migration has a PostgreSQL twin with the same id and name, and the reverse', (t) => {
  t.deepEqual(unpaired(listMigrations('sqlite'), listMigrations('postgres')), []);
  t.true(listMigrations('postgres').length >= 20);
});

test('the twin check fails when a migration is added to one dialect only', (t) => {
  const extra = { id: 9001, name: 'new_thing', sql: '' };
  t.deepEqual(unpaired([...listMigrations('sqlite'), extra], listMigrations('postgres')), ['9001_new_thing has no PostgreSQL twin']);
  t.deepEqual(unpaired(listMigrations('sqlite'), [...listMigrations('postgres'), extra]), ['9001_new_thing has no SQLite twin']);
});

interface Shape {
  columns: string[];
  kinds: string[];
  primaryKey: string[];
}

const KIND: Record<string, string> = { INTEGER: 'integer', TEXT: 'text', REAL: 'real', bigint: 'integer', text: 'text', citext: 'text', 'double precision': 'real' };
const FTS5_SHADOW = /_(data|idx|content|docsize|config)$/;

function sqliteSchema() {
  const db = new Database(':memory:');
  migrate(db);
  const all = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
  const virtual = all.filter((x) => /^CREATE VIRTUAL/i.test(x.sql)).map((x) => x.name);
  const tables = new Map<string, Shape>();
  for (const { name } of all.filter((x) => !virtual.some((v) => x.name.startsWith(`${v}_`) && FTS5_SHADOW.test(x.name)))) {
    const cols = db.prepare('SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as { name: string; type: string; pk: number }[];
    // An FTS5 table's key is its rowid, a real column on PostgreSQL.
    const isVirtual = virtual.includes(name);
    tables.set(name, {
      columns: isVirtual ? ['rowid', ...cols.map((c) => c.name)] : cols.map((c) => c.name),
      kinds: isVirtual ? ['integer', ...cols.map(() => 'text')] : cols.map((c) => KIND[c.type] ?? c.type),
      primaryKey: isVirtual ? ['rowid'] : cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
    });
  }
  const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
  const triggers = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all() as string[];
  const foreignKeys = [...tables.keys()].flatMap((name) =>
    (db.prepare('SELECT "table", "from" FROM pragma_foreign_key_list(?)').all(name) as { table: string; from: string }[]).map((fk) => `${name}.${fk.from} -> ${fk.table}`),
  );
  db.close();
  return { tables, indexes, triggers, foreignKeys: foreignKeys.sort() };
}

async function postgresSchema(url: string) {
  const pg = openTestPostgres(url);
  try {
    await migratePostgres(pg.db);
    const q = async <T,>(query: ReturnType<typeof sql<T>>) => (await query.execute(pg.db)).rows;
    const cols = await q(sql<{ table_name: string; column_name: string; data_type: string; udt_name: string; is_generated: string }>`
      SELECT table_name, column_name, data_type, udt_name, is_generated FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`);
    const pks = await q(sql<{ table_name: string; column_name: string }>`
      SELECT k.table_name, k.column_name FROM information_schema.table_constraints c
      JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema
      WHERE c.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY' ORDER BY k.table_name, k.ordinal_position`);
    const tables = new Map<string, Shape>();
    for (const c of cols.filter((x) => x.is_generated !== 'ALWAYS' && x.table_name !== 'schema_migrations')) {
      const shape = tables.get(c.table_name) ?? { columns: [], kinds: [], primaryKey: [] };
      shape.columns.push(c.column_name);
      shape.kinds.push(KIND[c.data_type === 'USER-DEFINED' ? c.udt_name : c.data_type] ?? c.data_type);
      tables.set(c.table_name, shape);
    }
    for (const k of pks) tables.get(k.table_name)?.primaryKey.push(k.column_name);
    const indexes = (await q(sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()`)).map((r) => r.indexname);
    const triggers = (await q(sql<{ tgname: string }>`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal`)).map((r) => r.tgname);
    const foreignKeys = (await q(sql<{ fk: string }>`
      SELECT c.conrelid::regclass::text || '.' || a.attname || ' -> ' || c.confrelid::regclass::text AS fk
      FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) AS k(attnum) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`)).map((r) => r.fk);
    return { tables, indexes, triggers, foreignKeys: foreignKeys.sort() };
  } finally {
    await pg.close();
  }
}

test('after all migrations PostgreSQL has every SQLite table with the same columns, kinds, primary key, indexes, foreign keys and triggers', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const lite = sqliteSchema();
  const pg = await postgresSchema(url);
  lite.tables.delete('schema_migrations');
  t.deepEqual([...pg.tables.keys()].sort(), [...lite.tables.keys()].sort(), 'the same tables');
  for (const [name, shape] of lite.tables) t.deepEqual(pg.tables.get(name), shape, name);
  t.deepEqual(lite.indexes.filter((i) => !pg.indexes.includes(i)), [], 'named SQLite indexes missing on PostgreSQL');
  t.deepEqual(lite.triggers.filter((i) => !pg.triggers.includes(i)), [], 'SQLite triggers missing on PostgreSQL');
  t.deepEqual(pg.foreignKeys, lite.foreignKeys, 'the same foreign keys');
});

/** Texts whose words both indexes must agree on: punctuation, code, diacritics, case, scripts without spaces. */
const SEARCH_SAMPLES = [
  'a@b.com orders.total_amount 3.14 foo-bar x_y https://x.io/p?q=1 Ünïcödé',
  'Umsätze nach Région, naïve café – ÉCOLE İstanbul',
  "SELECT SUM(total_amount) FROM orders WHERE status = 'completed'",
  '🚀 launch «quoted» “curly” 2025-01-01',
  '日本語のテキスト 中文',
  "don't it's O'Brien",
];

test('the PostgreSQL search index holds the same words as FTS5 for the same text (ß, æ, ø and ł fold further there)', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  await migratePostgres(pg.db);
  const words = async (text: string) =>
    (await sql<{ w: string }>`SELECT unnest(tsvector_to_array(to_tsvector('sextant_fts', chat_messages_fts_words(${text})))) AS w`.execute(pg.db)).rows.map((r) => r.w).sort();
  const lite = new Database(':memory:');
  migrate(lite);
  lite.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, chat_messages_fts, 'row')");
  for (const [i, text] of SEARCH_SAMPLES.entries()) {
    lite.prepare("INSERT INTO chat_messages_fts (rowid, body, scope) VALUES (?, ?, 'sscope')").run(-(i + 1), text);
    const fts5 = lite.prepare('SELECT term FROM temp.vocab').pluck().all() as string[];
    t.deepEqual(await words(text), fts5.filter((w) => w !== 'sscope').sort(), text);
    lite.exec('DELETE FROM chat_messages_fts');
  }
  lite.close();
  // unaccent also maps letters that are not a base letter plus a diacritic; FTS5 keeps them.
  t.deepEqual(await words('Straße Ærøskøbing Łódź'), ['aeroskobing', 'lodz', 'strasse']);
});
