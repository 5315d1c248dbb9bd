// The SQLite side of copy-store: which tables to copy, in foreign-key order, and their rows read from
// one snapshot (a read transaction), so a copy taken while the service writes is still consistent.
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listMigrations } from './migrate.ts';
import { assertKnownSchema } from './schema-version.ts';

/** A table as copy-store moves it: the SQLite columns (an FTS table's rowid named `rowid`). */
export interface CopyTable {
  name: string;
  columns: string[];
}

/** A copy that must not start; `code` is stable. */
export class CopyRefused extends Error {
  constructor(
    readonly code: 'COPY_SOURCE_MISSING' | 'COPY_SOURCE_NOT_MIGRATED' | 'COPY_TARGET_NOT_EMPTY',
    message: string,
  ) {
    super(message);
    this.name = 'CopyRefused';
  }
}

/** The database file of `from`: a data folder (its sextant.db) or the file itself. */
export function sourceFile(from: string): string {
  const file = existsSync(from) && statSync(from).isDirectory() ? join(from, 'sextant.db') : from;
  if (!existsSync(file)) throw new CopyRefused('COPY_SOURCE_MISSING', `No SQLite database at ${file}`);
  return file;
}

/** Opens the source read-only and checks it is at exactly this version's schema. */
export function openSource(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const recorded = db.prepare('SELECT id, name FROM schema_migrations').all() as { id: number; name: string }[];
    const known = listMigrations('sqlite');
    assertKnownSchema(recorded, known);
    const missing = known.filter((m) => !recorded.some((r) => r.id === m.id));
    if (missing.length > 0) {
      throw new CopyRefused('COPY_SOURCE_NOT_MIGRATED', `${file} lacks migrations ${missing.map((m) => m.id).join(', ')}: run \`sextant-admin migrate\` on it first`);
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** FTS5's shadow tables end in one of these; chat_messages_fts_pending is the service's own table. */
const FTS5_SHADOW = /_(data|idx|content|docsize|config)$/;

/** Tables of the service: not SQLite's own, not FTS5's shadow tables, not schema_migrations (the target records its own). */
export function serviceTables(db: Database.Database): { name: string; virtual: boolean }[] {
  const all = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string; sql: string }[];
  const virtual = all.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  return all
    .filter((t) => t.name !== 'schema_migrations' && !virtual.some((v) => t.name.startsWith(`${v}_`) && FTS5_SHADOW.test(t.name)))
    .map((t) => ({ name: t.name, virtual: virtual.includes(t.name) }));
}


/** Tables in an order where every table comes after the tables its foreign keys name (self-references aside). */
export function copyOrder(db: Database.Database): CopyTable[] {
  const tables = serviceTables(db);
  const parents = new Map(tables.map((t) => [t.name, new Set((db.prepare('SELECT "table" FROM pragma_foreign_key_list(?)').pluck().all(t.name) as string[]).filter((p) => p !== t.name))]));
  const ordered: CopyTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t.name) && [...parents.get(t.name)!].every((p) => placed.has(p)));
    if (ready.length === 0) throw new Error(`foreign keys form a cycle among ${tables.filter((t) => !placed.has(t.name)).map((t) => t.name).join(', ')}`);
    for (const t of ready) {
      placed.add(t.name);
      const columns = db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(t.name) as string[];
      ordered.push({ name: t.name, columns: t.virtual ? ['rowid', ...columns] : columns });
    }
  }
  return ordered;
}

/** AUTOINCREMENT's high-water marks: ids never handed out again, even after their rows were deleted. */
export function autoincrementMarks(db: Database.Database): Map<string, number> {
  const rows = db.prepare('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[];
  return new Map(rows.map((r) => [r.name, r.seq]));
}

/** The rows of a table in batches, as arrays in `columns` order. */
export function* sourceBatches(db: Database.Database, table: CopyTable, size: number): Generator<unknown[][]> {
  const cols = table.columns.map((c) => `"${c}"`).join(', ');
  let batch: unknown[][] = [];
  for (const row of db.prepare(`SELECT ${cols} FROM "${table.name}"`).raw().iterate() as IterableIterator<unknown[]>) {
    batch.push(row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
