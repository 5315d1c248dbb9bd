// Chat routes that read across chats or other domains: export of history, suggestions for a new
// chat, and the lineage of an answer.
import { Readable } from 'node:stream';
import { z } from 'zod';
import { columnLineage, EXPORT_COLUMNS, exportHistory, followUpSuggestions, initialSuggestions, messageLineage, type ExportRow } from '../../chats/index.ts';
import { ValidationFailed } from '../../errors.ts';
import { csvLine } from '../../shared/csv.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { ChatId, MessageUuid } from './chats.ts';

/** A date (YYYY-MM-DD, UTC) or an ISO date-time. */
const DateParam = z.string().max(40).regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'Expected YYYY-MM-DD or an ISO date-time');

const SourceRef = z.object({ schema: z.string().optional(), table: z.string(), column: z.string() });
const ColumnLineage = z.object({ column: z.string(), sources: z.array(SourceRef) });
const MessageLineage = z.object({
  message_id: z.string(),
  connections: z.array(z.string()),
  queries: z.array(
    z.object({
      query_id: z.string(),
      sql: z.string(),
      connection_id: z.string(),
      dialect: z.string(),
      tables: z.array(z.object({ schema: z.string().optional(), table: z.string() })),
      columns: z.array(ColumnLineage),
    }),
  ),
});

function toMs(value: string | undefined, field: string, endOfDay: boolean): number | undefined {
  if (value === undefined) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new ValidationFailed([{ loc: ['query', field], msg: 'Invalid date', type: 'value_error' }]);
  // An end date names a whole day: include it.
  return dateOnly && endOfDay ? ms + 86_400_000 : ms;
}

/** Routes of export_history, get_initial_suggestions and answer lineage. */
export function chatExtraRoutes(s: Services) {
  const deps = { ...s.chats, users: s.chatSources.users };
  return [
    route({
      method: 'GET',
      path: '/api/export_history',
      operationId: 'export_history',
      summary: 'Streams conversation history (admins: the organization, filterable by user; others: their own) as JSON lines or CSV',
      tags: ['chats'],
      auth: 'user',
      queryCredential: 'api_token',
      query: z.object({
        format: z.enum(['jsonl', 'csv']).default('jsonl'),
        start_date: DateParam.optional().describe('Inclusive'),
        end_date: DateParam.optional().describe('Inclusive for a date, exclusive for a date-time'),
        filter_user_id: z.string().max(200).optional().describe('Admins: one user\'s history; others may name only themselves (403 for anyone else)'),
        user_id: z.string().optional().describe('With api_token: the token\'s user (a credential, not a filter)'),
        api_token: z.string().optional(),
      }),
      produces: 'application/x-ndjson',
      handler: ({ query, principal, ctx }) => {
        const from = toMs(query.start_date, 'start_date', false);
        const to = toMs(query.end_date, 'end_date', true);
        const rows = exportHistory(deps, principal, {
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
          ...(query.filter_user_id === undefined ? {} : { userId: query.filter_user_id }),
        });
        const csv = query.format === 'csv';
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Content-Disposition', `attachment; filename="chat-history.${csv ? 'csv' : 'jsonl'}"`);
        ctx.type = csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson';
        ctx.body = Readable.from(lines(rows, csv));
      },
    }),
    route({
      method: 'GET',
      path: '/api/get_initial_suggestions',
      operationId: 'get_initial_suggestions',
      summary: 'Suggestions without a model call: for a new chat, recent answered questions, reports and documented tables; with chat_id, follow-ups of its last answered question. Only questions the model answers (checked by the offline model\'s planner)',
      tags: ['chats'],
      auth: 'user',
      query: z.object({ chat_id: ChatId.optional().describe('Follow-ups of this chat\'s last answered question instead (404 for a chat the caller may not read)') }),
      response: z.object({ suggestions: z.array(z.object({ text: z.string(), kind: z.enum(['recent', 'report', 'table', 'follow_up']) })) }),
      handler: async ({ principal, environmentId, query }) => ({
        suggestions: query.chat_id
          ? await followUpSuggestions(deps, s.chatSources.suggestions, principal, query.chat_id, environmentId)
          : await initialSuggestions(deps, s.chatSources.suggestions, principal, environmentId === undefined ? {} : { environmentId }),
      }),
    }),
    route({
      method: 'GET',
      path: '/api/c2/{chat_id}/lineage/{message_id}',
      operationId: 'message_lineage',
      summary: 'Data lineage of an answer: connections, tables, columns and the queries that produced it',
      tags: ['chats'],
      auth: 'user',
      params: z.object({ chat_id: ChatId, message_id: MessageUuid }),
      response: MessageLineage,
      handler: ({ params, principal }) => messageLineage(deps, s.chatSources.lineage, principal, params.chat_id, params.message_id),
    }),
    route({
      method: 'GET',
      path: '/api/c2/{chat_id}/lineage/{message_id}/column',
      operationId: 'column_lineage',
      summary: 'Traces one output column of an answer\'s query to its source columns',
      tags: ['chats'],
      auth: 'user',
      params: z.object({ chat_id: ChatId, message_id: MessageUuid }),
      query: z.object({
        query: z.string().min(1).max(100_000).describe('The query_id (df_key, or main) or the SQL of one of the answer\'s queries'),
        column: z.string().min(1).max(500),
      }),
      response: ColumnLineage.extend({ query_id: z.string(), connection_id: z.string() }),
      handler: ({ params, query, principal }) =>
        columnLineage(deps, s.chatSources.lineage, principal, { chatId: params.chat_id, messageId: params.message_id, query: query.query, column: query.column }),
    }),
  ];
}

async function* lines(rows: AsyncGenerator<ExportRow>, csv: boolean): AsyncGenerator<string> {
  if (csv) yield csvLine(EXPORT_COLUMNS);
  for await (const row of rows) yield csv ? csvLine(EXPORT_COLUMNS.map((c) => row[c])) : `${JSON.stringify(row)}\n`;
}
