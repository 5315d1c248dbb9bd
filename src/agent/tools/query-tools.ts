// run_sql and query_uploads: governed queries whose results are kept under a df_key.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { QueryResult } from '../ports.ts';
import { defineTool, EVENT_PREVIEW_ROWS, MODEL_PREVIEW_ROWS, type Dataframe, type ToolContext, type ToolOutput } from './tool.ts';

const newDfKey = () => `df_${randomBytes(6).toString('hex')}`;

/** Runs one read-only SELECT on a warehouse connection with the user's permissions. */
export const runSql = defineTool({
  spec: {
    name: 'run_sql',
    description:
      'Runs one read-only SELECT on a warehouse connection, with the user\'s permissions and row-level security. Returns columns, the first rows and a df_key naming the full result (for charts and downloads). Errors come back so you can fix the query.',
    parameters: {
      type: 'object',
      properties: {
        connection_id: { type: 'string' },
        sql: { type: 'string' },
        title: { type: 'string', description: 'Short title of the result' },
        formats: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'How to show columns the query computes, by column: percent (a ratio, 0.25 shown as 25%), integer, decimal or a currency code (USD). Display only; a governed metric\'s own format wins.',
        },
      },
      required: ['connection_id', 'sql'],
    },
  },
  args: z.object({
    connection_id: z.string().min(1),
    sql: z.string().min(1).max(100_000),
    title: z.string().max(500).optional(),
    formats: z.record(z.string().max(200), z.string().regex(/^(?:percent|integer|decimal|[A-Z]{3})$/)).optional(),
  }),
  async execute({ connection_id, sql, title, formats: asked }, ctx) {
    ctx.state.queries++;
    let result: QueryResult;
    try {
      result = await ctx.ports.queries.run({ principal: ctx.principal, environmentId: ctx.environmentId, connectionId: connection_id, sql, rowLimit: ctx.rowLimit, signal: ctx.signal, knowledgeCommit: ctx.state.knowledgeCommit });
    } catch (err) {
      ctx.emit({ type: 'sql', call_id: ctx.callId, connection_id, sql, ok: false });
      throw err;
    }
    ctx.emit({ type: 'sql', call_id: ctx.callId, connection_id, sql, ok: true, execution_ms: result.executionMs });
    const governed = await metricFormats(ctx, connection_id, result);
    // Only for columns the result has: a format named for another column is dropped.
    const own = Object.fromEntries(Object.entries(asked ?? {}).filter(([c]) => result.columns.some((col) => col.name === c)));
    const formats = governed || Object.keys(own).length > 0 ? { ...own, ...governed } : undefined;
    return keep(ctx, { sql, connectionId: connection_id, title, result, formats });
  },
});

/** Queries the files uploaded to this chat. */
export const queryUploads = defineTool({
  spec: {
    name: 'query_uploads',
    description: 'Runs one read-only SELECT over the files uploaded to this chat. Call with list_only=true to see the files and their table names.',
    parameters: { type: 'object', properties: { sql: { type: 'string' }, list_only: { type: 'boolean' } } },
  },
  args: z.object({ sql: z.string().max(100_000).optional(), list_only: z.boolean().default(false) }),
  async execute({ sql, list_only }, ctx) {
    if (list_only || !sql) {
      const files = await ctx.ports.uploads.list(ctx.principal, ctx.chatId);
      return { content: JSON.stringify({ files }), summary: `${files.length} uploaded files` };
    }
    ctx.state.queries++;
    const result = await ctx.ports.uploads.run(ctx.principal, ctx.chatId, sql, ctx.rowLimit, ctx.signal);
    ctx.emit({ type: 'sql', call_id: ctx.callId, connection_id: 'uploads', sql, ok: true, execution_ms: result.executionMs });
    return keep(ctx, { sql, connectionId: 'uploads', title: undefined, result });
  },
});

/**
 * How to show the columns that carry a governed metric (a column named after a metric of a table the
 * query read): the metric's format, so a revenue column reads in its currency. Nothing is guessed from
 * names; a column no metric names gets no format.
 */
async function metricFormats(ctx: ToolContext, connectionId: string, result: QueryResult): Promise<Record<string, string> | undefined> {
  const byName = new Map<string, string>();
  for (const table of result.tables ?? []) {
    const doc = await ctx.ports.knowledge.getTable(ctx.principal, ctx.environmentId, connectionId, table, ctx.state.knowledgeCommit);
    for (const m of doc?.metrics ?? []) if (m.format) byName.set(m.name.toLowerCase(), m.format);
  }
  const formats = Object.fromEntries(result.columns.flatMap((c) => (byName.has(c.name.toLowerCase()) ? [[c.name, byName.get(c.name.toLowerCase())!]] : [])));
  return Object.keys(formats).length > 0 ? formats : undefined;
}

function keep(ctx: ToolContext, { sql, connectionId, title, result, formats }: { sql: string; connectionId: string; title: string | undefined; result: QueryResult; formats?: Record<string, string> | undefined }): ToolOutput {
  const columns = result.columns.map((c) => c.name);
  const rows = result.rows.slice(0, ctx.rowLimit);
  const df: Dataframe = { dfKey: newDfKey(), title, sql, connectionId, dialect: result.dialect, columns, rows, rowCount: result.rowCount, truncated: result.truncated, ...(formats ? { formats } : {}) };
  ctx.state.dataframes.set(df.dfKey, df);
  ctx.emit({ type: 'table', call_id: ctx.callId, df_key: df.dfKey, columns, rows: rows.slice(0, EVENT_PREVIEW_ROWS), row_count: df.rowCount, truncated: df.truncated, ...(formats ? { formats } : {}) });
  const content = JSON.stringify({ df_key: df.dfKey, columns: result.columns, rows: rows.slice(0, MODEL_PREVIEW_ROWS), row_count: df.rowCount, truncated: df.truncated });
  return { content, summary: `${df.rowCount} rows${df.truncated ? ' (truncated)' : ''} in ${result.executionMs} ms` };
}
