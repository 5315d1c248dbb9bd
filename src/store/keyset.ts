// Keyset pages of a list ordered by (edit time, id), newest first: the cursor a page ends with, read
// back, and the condition that starts the next page after it. Ties on the time are broken by the id,
// so every item shows once across the pages, whatever was edited at the same millisecond.
import { sql, type RawBuilder } from 'kysely';

/** Where a page starts: after the item edited at `at` with id `id`. */
export interface KeysetAfter {
  at: number;
  id: string;
}

/** The opaque cursor for the page after `last`. */
export const encodeKeyset = (last: KeysetAfter): string => Buffer.from(JSON.stringify([last.at, last.id])).toString('base64url');

/** The position a cursor names, or undefined for a cursor this module did not write. */
export function decodeKeyset(cursor: string): KeysetAfter | undefined {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(at) && typeof id === 'string') return { at: at as number, id };
  } catch {
    // Not JSON: not ours.
  }
  return undefined;
}

/** `AND` the rows after `after` in (`atColumn` DESC, `idColumn` DESC) order; nothing without it. */
export function afterKeyset(after: KeysetAfter | undefined, atColumn: string, idColumn: string): RawBuilder<unknown> {
  if (!after) return sql``;
  const at = sql.ref(atColumn);
  return sql`AND (${at} < ${after.at} OR (${at} = ${after.at} AND ${sql.ref(idColumn)} < ${after.id}))`;
}
