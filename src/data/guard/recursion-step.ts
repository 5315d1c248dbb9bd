// The step function that caps recursive CTEs on SQLite and DuckDB: the guard's rewrite puts calls to
// it in every recursive term, and the query process's session defines it, counting the rows and
// failing the statement past SEXTANT_QUERY_MAX_RECURSION. A user may not write it: a call of their
// own would only add to the count, but a name the guard relies on is the guard's alone.
import { QueryRefused } from '../errors.ts';
import type { GuardedQuery } from './table-ref.ts';

/** The function the sessions register; named here and in the rewrites. */
export const STEP_FUNCTION = 'sextant_step';

/** The message of a statement stopped by the step function, the same on every engine. */
export const recursionLimitMessage = (cap: number) => `The recursive query went past ${cap} rows and was stopped; bound the recursion with a condition`;

/** Refuses a statement as sent by a user that names the step function. */
export function refuseStepFunction(q: GuardedQuery): void {
  if (q.functions.includes(STEP_FUNCTION)) throw new QueryRefused('forbidden_function', `The function ${STEP_FUNCTION} is reserved for the service and cannot be called in queries`);
}
