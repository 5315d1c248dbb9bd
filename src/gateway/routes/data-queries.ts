// Governed queries over REST: the context-agent query (CSV text, interface part 4), execute_query
// (JSON rows) and rerun_query (a logged query again, under the caller's current permissions).
import { z } from 'zod';
import { connectionToQuery } from '../../data/connections/index.ts';
import { executeQuery, loggedQueryToRerun, type QueryResult } from '../../data/query/index.ts';
import { toCsv } from '../../shared/csv.ts';
import { clientSignal } from '../client-signal.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const MAX_ROWS = 1_000_000;

const QueryResponse = z.object({
  query_id: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())),
  row_count: z.number(),
  truncated: z.boolean(),
  execution_time_ms: z.number(),
  tables: z.array(z.string()),
});

const toJson = (r: QueryResult) => ({
  query_id: r.queryId,
  columns: r.columns,
  rows: r.rows,
  row_count: r.rowCount,
  truncated: r.truncated,
  execution_time_ms: r.executionTimeMs,
  tables: r.tables,
});

/** Query routes. */
export function dataQueryRoutes(s: Services) {
  return [
    route({
      method: 'POST',
      path: '/api/context-agent/execute-query',
      operationId: 'context_agent_execute_query',
      summary: 'Runs one read-only SELECT with row-level security and returns CSV text; admins any table, modelers governed sources only',
      tags: ['queries'],
      auth: 'user',
      // Interface part 5: context-agent SQL for admins; modelers only on governed sources (checked in the pipeline).
      role: 'modeler',
      body: z
        .object({
          sql: z.string().min(1).max(100_000).optional(),
          query: z.string().min(1).max(100_000).optional(),
          connection_id: z.string().min(1).max(100).optional(),
          row_limit: z.number().int().min(1).max(MAX_ROWS).optional(),
        })
        .refine((b) => b.sql !== undefined || b.query !== undefined, { message: 'Field required', path: ['sql'] }),
      response: z.object({ csv_content: z.string(), summary: z.string(), row_count: z.number(), column_count: z.number(), execution_time_ms: z.number() }),
      handler: async ({ principal, environmentId, body, ctx }) => {
        const p = principal;
        const r = await executeQuery(s.data, {
          principal: p,
          environmentId,
          connectionId: await connectionToQuery(s.data, p.orgId, body.connection_id),
          sql: (body.sql ?? body.query)!,
          rowLimit: body.row_limit ?? s.config.data.queryRowLimit,
          source: 'context_agent',
          signal: clientSignal(ctx),
        });
        const summary = `${r.rowCount} row${r.rowCount === 1 ? '' : 's'} x ${r.columns.length} column${r.columns.length === 1 ? '' : 's'}${
          r.truncated ? ` (truncated at the row limit of ${body.row_limit ?? s.config.data.queryRowLimit}; add filters or aggregate for the rest)` : ''
        }; tables: ${r.tables.join(', ') || 'none'}`;
        return {
          csv_content: toCsv(r.columns.map((c) => c.name), r.rows),
          summary,
          row_count: r.rowCount,
          column_count: r.columns.length,
          execution_time_ms: r.executionTimeMs,
        };
      },
    }),
    route({
      method: 'POST',
      path: '/api/execute_query',
      operationId: 'execute_query',
      summary: 'Runs one read-only SELECT on governed sources (admins: any table) with row-level security; JSON rows',
      tags: ['queries'],
      auth: 'user',
      body: z.object({
        sql: z.string().min(1).max(100_000),
        connection_id: z.string().min(1).max(100).optional(),
        row_limit: z.number().int().min(1).max(MAX_ROWS).optional(),
      }),
      response: QueryResponse,
      handler: async ({ principal, environmentId, body, ctx }) =>
        toJson(
          await executeQuery(s.data, {
            principal: principal,
            environmentId,
            connectionId: await connectionToQuery(s.data, principal.orgId, body.connection_id),
            sql: body.sql,
            ...(body.row_limit ? { rowLimit: body.row_limit } : {}),
            source: 'execute_query',
            signal: clientSignal(ctx),
          }),
        ),
    }),
    route({
      method: 'POST',
      path: '/api/rerun_query',
      operationId: 'rerun_query',
      summary: 'Runs a logged query again under the caller\'s current permissions and row filters (own queries; admins any in the org), binding the values logged with it (a dashboard tile\'s filters)',
      tags: ['queries'],
      auth: 'user',
      body: z.object({ query_id: z.string().min(1).max(100), row_limit: z.number().int().min(1).max(MAX_ROWS).optional() }),
      response: QueryResponse,
      handler: async ({ principal, environmentId, body, ctx }) => {
        const p = principal;
        const logged = await loggedQueryToRerun(s.data, p, body.query_id);
        return toJson(
          await executeQuery(s.data, {
            principal: p,
            environmentId: environmentId ?? logged.environment_id ?? undefined,
            connectionId: logged.connection_id,
            sql: logged.sql,
            // A dashboard's filter values, bound again where they were (the guard checks them against the placeholders).
            params: logged.boundParams,
            ...(body.row_limit ? { rowLimit: body.row_limit } : {}),
            source: 'rerun_query',
            signal: clientSignal(ctx),
          }),
        );
      },
    }),
  ];
}
