import type { Db } from '../store/index.ts';

/**
 * The one single-use consumer: marks a row used with a conditional UPDATE. Exactly one caller among
 * concurrent ones sees `true`; the rest see `false`. `where` must only contain bound parameters.
 */
export function consumeOnce(
  db: Db,
  { table, usedColumn, where, params, now }: { table: string; usedColumn: string; where: string; params: unknown[]; now: number },
): boolean {
  const info = db.prepare(`UPDATE ${table} SET ${usedColumn} = ? WHERE ${usedColumn} IS NULL AND (${where})`).run(now, ...params);
  return info.changes === 1;
}
