// The PostgreSQL side of copy-store, all inside the copy's one transaction: emptiness, inserts with
// the chat triggers off, identity sequences, and the rows read back for the checksum.
import { sql, type Transaction } from 'kysely';
import type { CopyTable } from './copy-source.ts';
import { RowChecksum } from './copy-rows.ts';

type Trx = Transaction<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Kysely's untyped database

/** PostgreSQL allows 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;

/** The tables among `tables` that already hold rows. */
export async function nonEmptyTables(trx: Trx, tables: CopyTable[]): Promise<string[]> {
  const found: string[] = [];
  for (const t of tables) {
    const { rows } = await sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM ${sql.table(t.name)}) AS any`.execute(trx);
    if (rows[0]?.any) found.push(t.name);
  }
  return found;
}

/**
 * Prepares the target for verbatim rows: emptied when asked, user triggers off (the chat triggers
 * would queue and index every copied message again; the queue and the index are copied as they are),
 * and deferrable foreign keys checked at commit (a workspace may precede its base organization).
 */
export async function prepareTarget(trx: Trx, tables: CopyTable[], truncate: boolean): Promise<void> {
  if (truncate) await sql`TRUNCATE ${sql.join(tables.map((t) => sql.table(t.name)))} RESTART IDENTITY CASCADE`.execute(trx);
  for (const t of tables) await sql`ALTER TABLE ${sql.table(t.name)} DISABLE TRIGGER USER`.execute(trx);
  await sql`SET CONSTRAINTS ALL DEFERRED`.execute(trx);
}

/** Checks the deferred foreign keys now (ALTER TABLE refuses pending checks) and turns the triggers back on. */
export async function restoreTriggers(trx: Trx, tables: CopyTable[]): Promise<void> {
  await sql`SET CONSTRAINTS ALL IMMEDIATE`.execute(trx);
  for (const t of tables) await sql`ALTER TABLE ${sql.table(t.name)} ENABLE TRIGGER USER`.execute(trx);
}

/** Rows per INSERT for a table of this width. */
export const insertBatchRows = (table: CopyTable, wanted: number) => Math.max(1, Math.min(wanted, Math.floor(MAX_PARAMETERS / table.columns.length)));

export async function insertRows(trx: Trx, table: CopyTable, rows: unknown[][]): Promise<void> {
  const values = rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i]])));
  await trx.insertInto(table.name).values(values).execute();
}

/**
 * Moves every identity sequence past the largest id copied and past SQLite's AUTOINCREMENT mark,
 * so PostgreSQL never hands out an id SQLite already used.
 */
export async function resetIdentities(trx: Trx, marks: Map<string, number>): Promise<void> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND is_identity = 'YES'`.execute(trx);
  for (const { table_name: table, column_name: column } of rows) {
    const max = await sql<{ max: number | null }>`SELECT max(${sql.ref(column)}) AS max FROM ${sql.table(table)}`.execute(trx);
    const last = Math.max(max.rows[0]?.max ?? 0, marks.get(table) ?? 0);
    const seq = sql`pg_get_serial_sequence(${table}, ${column})`;
    if (last > 0) await sql`SELECT setval(${seq}, ${last}, true)`.execute(trx);
    else await sql`SELECT setval(${seq}, 1, false)`.execute(trx);
  }
}

/** Reads a table back through a cursor and sums its rows as the source side did. */
export async function targetChecksum(trx: Trx, table: CopyTable, batch: number): Promise<RowChecksum> {
  const sum = new RowChecksum();
  const cols = sql.join(table.columns.map((c) => sql.ref(c)));
  await sql`DECLARE copy_verify NO SCROLL CURSOR FOR SELECT ${cols} FROM ${sql.table(table.name)}`.execute(trx);
  for (;;) {
    const { rows } = await sql<Record<string, unknown>>`FETCH FORWARD ${sql.raw(String(batch))} FROM copy_verify`.execute(trx);
    for (const r of rows) sum.add(table.columns.map((c) => r[c]));
    if (rows.length < batch) break;
  }
  await sql`CLOSE copy_verify`.execute(trx);
  return sum;
}
