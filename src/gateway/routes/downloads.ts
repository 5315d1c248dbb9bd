// Downloads of answer data (interface part 4; part 5 rule 5): CSV and Excel by message, and their
// agentic twins by df_key. The session cookie, the usual headers or a `token` query parameter (so a
// plain link works) authenticate; the query re-runs as the caller and streams into the response.
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { AppError } from '../../errors.ts';
import { z } from 'zod';
import type { Principal } from '../../auth/index.ts';
import type { AnswerLocator } from '../../chats/index.ts';
import { CONTENT_TYPES, prepareDownload, prepareSavedDownload, readAnswerRows, type DownloadFormat, type PreparedDownload } from '../../compose/downloads/index.ts';
import { clientSignal } from '../client-signal.ts';
import { attachment } from '../content-disposition.ts';
import type { Services } from '../../compose/services.ts';
import { route } from '../route.ts';
import { ChatId, MessageUuid } from './chats.ts';

const OrgId = z.string().min(1).max(200).optional().describe('Must be the caller\'s organization when given');
const Token = z.string().optional().describe('Session JWT or API token, for links that cannot send headers');
const DfKey = z.string().min(1).max(200);
const Position = z
  .string()
  .regex(/^\d{1,9}$/, 'Input should be a valid integer')
  .transform(Number)
  .optional()
  .describe('Position of the message in the chat (0 is the first)');

/** The last line of a CSV download that stopped after its first byte (documented on the routes). */
export const CUT_MARKER = '# sextant: download cut:';
const CUT_DESCRIPTION =
  `When the query fails after the first bytes were sent, the file ends with a line \`${CUT_MARKER} <CODE>: <message>\` ` +
  '(on a line of its own; a spreadsheet shows it, CSV readers that skip # comments leave it out) and the connection is cut ' +
  'without the last chunk, so the client sees an incomplete response: such a file is never complete.';

/**
 * Ends a CSV download that failed mid-way: the marker line goes out after the rows already sent,
 * then the socket is closed once it has flushed them, without the terminating chunk of the chunked
 * response (ending the response would make the file look complete; destroying it could drop the line).
 */
function cutCsv(ctx: Context, body: PassThrough, err: Error): void {
  const reason = err instanceof AppError ? `${err.code}: ${err.message}` : 'DOWNLOAD_FAILED: the download failed';
  body.write(`\r\n${CUT_MARKER} ${reason.replace(/[\r\n]+/g, ' ')}\r\n`);
  const socket = ctx.req.socket;
  const close = () => {
    // The rows and the line may still wait in `body` for a slow client: close once they have left.
    if (body.readableLength > 0) return void body.once('data', () => setImmediate(close));
    socket.end();
    socket.once('close', () => body.destroy(err));
  };
  close();
}

const common = { tags: ['downloads'], auth: 'user' as const, queryCredential: 'token' as const };

/** The four download routes, and the rows of an answer table a page at a time. */
export function downloadRoutes(s: Services) {
  const deps = { chats: s.chats, data: s.data };
  const savedDeps = { saved: s.saved, data: s.data };

  /** Starts the governed query, then streams the file; a client that goes away stops the query. */
  async function send(ctx: Context, principal: Principal, environmentId: string | undefined, format: DownloadFormat, q: { chat_id: string; org_id?: string | undefined }, at: AnswerLocator) {
    await stream(ctx, format, { chat_id: q.chat_id }, (signal) => prepareDownload(deps, { principal, environmentId, chatId: q.chat_id, orgId: q.org_id, at, format, signal }));
  }

  /** Streams a prepared download into the response; `about` names it in the log when it fails mid-way. */
  async function stream(ctx: Context, format: DownloadFormat, about: Record<string, string>, prepare: (signal: AbortSignal) => Promise<PreparedDownload>) {
    // Koa pipes `body` into the response: a closed connection destroys `body`, which fails the writer,
    // and aborts the signal, which stops the query in the warehouse (also while it prepares).
    const signal = clientSignal(ctx);
    const download = await prepare(signal);
    const body = new PassThrough();
    ctx.status = 200;
    ctx.type = download.contentType;
    ctx.set('Content-Disposition', attachment(download.filename));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
    download.writeTo(body, signal).catch((err: unknown) => {
      const error = err instanceof Error ? err : new Error(String(err));
      if (signal.aborted) return body.destroy(error);
      ctx.state.log?.warn({ err, ...about }, 'download failed after the response started');
      // Headers are sent: the signals left are a last line in the file (CSV) and a cut connection.
      if (format === 'csv') cutCsv(ctx, body, error);
      else body.destroy(error);
    });
  }

  return [
    route({
      method: 'GET',
      path: '/api/download_big_csv',
      operationId: 'download_big_csv',
      summary: 'Streams the data of an answer as CSV, re-run under the caller\'s permissions (by message_uuid, else message_position, else the latest answer)',
      description: CUT_DESCRIPTION,
      ...common,
      query: z.object({ chat_id: ChatId, message_uuid: MessageUuid.optional(), message_position: Position, org_id: OrgId, token: Token }),
      produces: CONTENT_TYPES.csv,
      handler: async ({ query, principal, environmentId, ctx }) => {
        const at: AnswerLocator =
          query.message_uuid !== undefined ? { messageUuid: query.message_uuid } : query.message_position !== undefined ? { messagePosition: query.message_position } : { latest: true };
        await send(ctx, principal, environmentId, 'csv', query, at);
      },
    }),
    route({
      method: 'GET',
      path: '/api/download_excel',
      operationId: 'download_excel',
      summary: 'Streams the data of an answer as an Excel workbook (split across sheets past the sheet row limit)',
      ...common,
      query: z.object({ chat_id: ChatId, message_uuid: MessageUuid, org_id: OrgId, token: Token }),
      produces: CONTENT_TYPES.xlsx,
      handler: async ({ query, principal, environmentId, ctx }) => send(ctx, principal, environmentId, 'xlsx', query, { messageUuid: query.message_uuid }),
    }),
    route({
      method: 'GET',
      path: '/api/download_big_csv_agentic',
      operationId: 'download_big_csv_agentic',
      summary: 'Streams an agentic answer table (by df_key) as CSV, re-run under the caller\'s permissions',
      description: CUT_DESCRIPTION,
      ...common,
      query: z.object({ chat_id: ChatId, df_key: DfKey, org_id: OrgId, token: Token }),
      produces: CONTENT_TYPES.csv,
      handler: async ({ query, principal, environmentId, ctx }) => send(ctx, principal, environmentId, 'csv', query, { dfKey: query.df_key }),
    }),
    route({
      method: 'GET',
      path: '/api/download_excel_agentic',
      operationId: 'download_excel_agentic',
      summary: 'Streams an agentic answer table (by df_key) as an Excel workbook',
      ...common,
      query: z.object({ chat_id: ChatId, df_key: DfKey, org_id: OrgId, token: Token }),
      produces: CONTENT_TYPES.xlsx,
      handler: async ({ query, principal, environmentId, ctx }) => send(ctx, principal, environmentId, 'xlsx', query, { dfKey: query.df_key }),
    }),
    route({
      method: 'GET',
      path: '/api/saved_questions/{id}/export',
      operationId: 'export_saved_question',
      summary: "Streams a saved question's rows as CSV or an Excel workbook, read now under the caller's permissions and row-level security (no row limit)",
      description: `The same access as reading the question (another user's private question answers 404) and the same guard as its run. ${CUT_DESCRIPTION}`,
      ...common,
      tags: ['downloads', 'saved questions'],
      params: z.object({ id: z.string().min(1).max(100) }),
      query: z.object({ format: z.enum(['csv', 'xlsx']).default('csv'), org_id: OrgId, token: Token }),
      produces: CONTENT_TYPES.csv,
      errors: { 400: 'Query refused by the guard', 404: 'Saved question not found' },
      handler: async ({ params, query, principal, environmentId, ctx }) =>
        stream(ctx, query.format, { saved_question_id: params.id }, (signal) =>
          prepareSavedDownload(savedDeps, { principal, environmentId, questionId: params.id, orgId: query.org_id, format: query.format, signal, now: s.clock.now() }),
        ),
    }),
    route({
      method: 'GET',
      path: '/api/agentic/table_rows',
      operationId: 'agentic_table_rows',
      summary: "A window of an agentic answer table's rows (by df_key), re-run under the caller's permissions; for paged tables",
      tags: ['downloads'],
      auth: 'user',
      query: z.object({
        chat_id: ChatId,
        df_key: DfKey,
        offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
        limit: z.coerce.number().int().min(1).max(10_000).default(100),
      }),
      response: z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.unknown())), offset: z.number().int(), has_more: z.boolean() }),
      handler: ({ query, principal, environmentId }) =>
        readAnswerRows(deps, { principal: principal, environmentId, chatId: query.chat_id, dfKey: query.df_key, offset: query.offset, limit: query.limit }),
    }),
  ];
}
