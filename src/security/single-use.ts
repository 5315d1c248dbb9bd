import type { Expression, SqlBool } from 'kysely';
import type { Executor } from '../store/index.ts';

/**
 * The one single-use consumer: marks a row used with a conditional UPDATE. Exactly one caller among
 * concurrent ones sees `true`; the rest see `false` (on both dialects: the row count decides).
 * `where` is column-value pairs, or a `sql` condition whose values are all bound parameters.
 */
export async function consumeOnce(
  store: Executor,
  { table, usedColumn, where, now }: { table: string; usedColumn: string; where: Expression<SqlBool> | Record<string, unknown>; now: number },
): Promise<boolean> {
  let update = store.db.updateTable(table).set({ [usedColumn]: now }).where(usedColumn, 'is', null);
  if (isExpression(where)) update = update.where(where);
  else for (const [column, value] of Object.entries(where)) update = update.where(column, '=', value);
  const { changes } = await store.run(update);
  return changes === 1;
}

function isExpression(where: Expression<SqlBool> | Record<string, unknown>): where is Expression<SqlBool> {
  return typeof (where as Partial<Expression<SqlBool>>).toOperationNode === 'function';
}
