import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Principal } from '../../auth/index.ts';
import type { McpContext } from './context.ts';
import { toCsv } from './csv.ts';
import { safely, structured, toolError } from './tool-result.ts';

export const DEFAULT_ROW_LIMIT = 10_000;

/** Admins may run SQL on any connection; modelers on governed sources only; others not at all. */
export function mayRunSql(p: Principal): boolean {
  return p.role === 'admin' || p.role === 'modeler';
}

/** `run_query`: one read-only SQL statement, governed and logged; only for roles allowed SQL. */
export function registerRunQueryTool(server: McpServer, c: McpContext): void {
  if (!mayRunSql(c.principal)) return;
  server.registerTool(
    'run_query',
    {
      title: 'Run a read-only SQL query',
      description:
        'Runs one read-only SELECT on a connection from the catalog and returns the rows as CSV. Row-level security applies and the query is logged. Prefer ask_question for analysis; use this to check a specific number or table.',
      inputSchema: {
        connection_id: z.string().min(1).max(200).describe('A connection id from catalog.'),
        sql: z.string().min(1).max(100_000).describe('One SELECT statement in the connection’s dialect.'),
        row_limit: z.number().int().min(1).max(DEFAULT_ROW_LIMIT).default(1000).describe('Maximum rows returned.'),
      },
      outputSchema: { columns: z.array(z.string()), row_count: z.number(), truncated: z.boolean(), execution_time_ms: z.number(), csv: z.string() },
      annotations: { title: 'Run a read-only SQL query', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ connection_id, sql, row_limit }, ctx) =>
      safely(c.log, 'run_query', async () => {
        if (!mayRunSql(c.principal)) return toolError('Your role does not allow SQL queries; use ask_question instead.');
        const signal = c.closed ? AbortSignal.any([ctx.mcpReq.signal, c.closed]) : ctx.mcpReq.signal;
        const input = { connectionId: connection_id, sql, rowLimit: row_limit, governedOnly: c.principal.role !== 'admin', signal };
        const r = await c.ports.runQuery(c.principal, input);
        return structured({ columns: r.columns, row_count: r.rowCount, truncated: r.truncated, execution_time_ms: r.executionMs, csv: toCsv(r.columns, r.rows) });
      }),
  );
}
