// Bind parameters, as the guard admits them. No statement a user or the model writes may hold a
// placeholder (`$1`, `?`): nothing of theirs binds values. A caller that writes placeholders itself
// (a dashboard's filters, query/filter-result.ts) passes the values beside the statement, and then
// the statement must hold exactly one placeholder per value, numbered 1..n: a placeholder hidden in
// the rest of the text (the saved question's SQL, a row filter) makes one too many and is refused,
// so no value can be bound anywhere but where its caller put it. Values are checked here as well,
// once for every driver: text without NUL (PostgreSQL cannot hold it), calendar days as
// `YYYY-MM-DD`, finite numbers.
import { QueryRefused } from '../errors.ts';
import type { SqlParam } from '../types.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Refuses a value no driver should bind. */
function checkValue(p: SqlParam, i: number): void {
  const at = `Bind parameter ${i + 1}`;
  if (p.type === 'number' && !(typeof p.value === 'number' && Number.isFinite(p.value))) throw new QueryRefused('parameter', `${at} must be a finite number`);
  if (p.type !== 'number' && typeof p.value !== 'string') throw new QueryRefused('parameter', `${at} must be text`);
  if (p.type === 'text' && p.value.includes('\0')) throw new QueryRefused('parameter', `${at} contains a NUL character`);
  if (p.type === 'date' && !DAY.test(p.value)) throw new QueryRefused('parameter', `${at} must be a day as YYYY-MM-DD`);
  if (!['text', 'date', 'number'].includes(p.type)) throw new QueryRefused('parameter', `${at} has an unknown type`);
}

/** Accepts the statement's placeholders (their numbers) against the values passed, or throws QueryRefused. */
export function checkPlaceholders(found: readonly number[], params: readonly SqlParam[] | undefined): void {
  const values = params ?? [];
  if (found.length === 0 && values.length === 0) return;
  if (values.length === 0) throw new QueryRefused('parameter', 'Bind parameters ($1, ?, :name) are refused: write the values into the query');
  const sorted = [...found].sort((a, b) => a - b);
  if (sorted.length !== values.length || sorted.some((n, i) => n !== i + 1)) {
    throw new QueryRefused('parameter', `The statement's placeholders do not match the ${values.length} values bound to it: one placeholder each, numbered from 1`);
  }
  values.forEach(checkValue);
}
