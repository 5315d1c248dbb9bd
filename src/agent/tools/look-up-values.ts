// look_up_values: which columns hold the values a question names ("revenue in Chicago", where the
// knowledge documents a location name but does not list its values). One governed query, under the
// user's permissions and row security like every other, whose matches go to the model only: no
// result table is kept or shown, since they are how a question was read, not its answer.
import { z } from 'zod';
import { defineTool } from './tool.ts';

/** Names written into the lookup's SQL unquoted: any dialect reads them alike. */
export const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Words as people write a value: letters, digits, spaces, apostrophes, hyphens, dots, ampersands. */
export const PHRASE = /^[\p{L}\p{N}][\p{L}\p{N} '&.-]{0,99}$/u;
const MAX_MATCHES = 50;

const quoted = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The lookup's statement: each column's distinct values equal, case aside, to one of the phrases. */
export function lookUpSql(columns: { schema: string; table: string; column: string }[], phrases: string[]): string {
  const wanted = [...new Set(phrases.map((p) => p.toLowerCase()))].map(quoted).join(', ');
  const parts = columns.map(
    (c) => `SELECT ${quoted(c.schema)} AS table_schema, ${quoted(c.table)} AS table_name, ${quoted(c.column)} AS column_name, ${c.column} AS value FROM ${c.schema}.${c.table} WHERE LOWER(${c.column}) IN (${wanted}) GROUP BY ${c.column}`,
  );
  return `SELECT table_schema, table_name, column_name, value FROM (\n${parts.join('\nUNION ALL\n')}\n) AS found\nLIMIT ${MAX_MATCHES}`;
}

export const lookUpValues = defineTool({
  spec: {
    name: 'look_up_values',
    description:
      'Finds which of the given text columns hold values equal (case aside) to words of the question, such as a city or a product name the knowledge does not list. Runs one read-only query with the user\'s permissions and row-level security; returns the matches, not a result table.',
    parameters: {
      type: 'object',
      properties: {
        connection_id: { type: 'string' },
        columns: {
          type: 'array',
          items: { type: 'object', properties: { schema: { type: 'string' }, table: { type: 'string' }, column: { type: 'string' } }, required: ['schema', 'table', 'column'] },
        },
        phrases: { type: 'array', items: { type: 'string' }, description: 'Words of the question that may be values, e.g. "new orleans"' },
      },
      required: ['connection_id', 'columns', 'phrases'],
    },
  },
  args: z.object({
    connection_id: z.string().min(1),
    columns: z.array(z.object({ schema: z.string().regex(NAME), table: z.string().regex(NAME), column: z.string().regex(NAME) })).min(1).max(8),
    phrases: z.array(z.string().regex(PHRASE)).min(1).max(12),
  }),
  async execute({ connection_id, columns, phrases }, ctx) {
    const sql = lookUpSql(columns, phrases);
    ctx.state.queries++;
    let result;
    try {
      result = await ctx.ports.queries.run({ principal: ctx.principal, environmentId: ctx.environmentId, connectionId: connection_id, sql, rowLimit: MAX_MATCHES, signal: ctx.signal, knowledgeCommit: ctx.state.knowledgeCommit });
    } catch (err) {
      ctx.emit({ type: 'sql', call_id: ctx.callId, connection_id, sql, ok: false });
      throw err;
    }
    ctx.emit({ type: 'sql', call_id: ctx.callId, connection_id, sql, ok: true, execution_ms: result.executionMs });
    const matches = result.rows.map(([schema, table, column, value]) => ({ schema: String(schema), table: String(table), column: String(column), value: String(value) }));
    return { content: JSON.stringify({ matches }), summary: `${matches.length} values found` };
  },
});
