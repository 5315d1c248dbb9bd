// DuckDB's threads for a CSV export, decided before its session opens: an export's instance is locked
// down with its thread count. One, unless the statement sorts at its top level. Insertion order is kept
// at any count, and two threads keep it by writing the file a batch at a time, each batch once all before
// it are done: a scan under a row filter's fence (OFFSET 0, guard/table-ref.ts, a LIMIT DuckDB runs on one
// thread while it keeps that order) gains nothing from it, and an unsorted statement would send its first
// byte only once its first batch is complete, where one thread streams rows from the start (a slow cross
// join sent nothing before its timeout). A sort sends nothing before it has ended anyway, and sorts on
// both threads. bench/downloads.ts, A/B through the endpoint on 1,000,000 rows with a row filter and
// ORDER BY (medians of six rounds, three runs): 0.79 -> 0.66, 0.69 -> 0.65 and 0.75 -> 0.69 s; DuckDB
// alone, 0.78 -> 0.52 s.
import type { ConnectionView } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import { QueryRefused } from '../errors.ts';
import { duckDbSortsAtTop, guardSql } from '../guard/index.ts';
import type { GovernedQueryArgs } from './stream-query.ts';

/** The threads the export of `args.sql` opens its DuckDB session with (other warehouses: 1, unused). */
export async function exportThreads(deps: DataDeps, args: Pick<GovernedQueryArgs, 'sql' | 'params'>, connection: Pick<ConnectionView, 'type'>): Promise<1 | 2> {
  // Without the word there is no ORDER BY: most downloads skip the parse (~2 ms of the gateway's CPU).
  if (connection.type !== 'duckdb' || !/order/i.test(args.sql)) return 1;
  try {
    return duckDbSortsAtTop(await guardSql({ sql: args.sql, dialect: 'duckdb', tools: deps.tools, params: args.params })) ? 2 : 1;
  } catch (err) {
    // Governance refuses the statement again once the session is open, and logs the refusal.
    if (err instanceof QueryRefused) return 1;
    throw err;
  }
}
