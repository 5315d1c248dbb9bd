import type { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from './context.ts';
import type { ChatResult } from '../ports.ts';
import { toCsv } from './csv.ts';
import { resultTableUri } from '../resources/result-table.ts';
import { safely, structured } from './tool-result.ts';
import { chartPng } from '../../charts/chart-png.ts';
import type { ResultChart } from '../ports.ts';

/** Seconds a client should wait before polling a running chat again. */
type Block = CallToolResult['content'][number];

export const SUGGESTED_WAIT_SECONDS = 5;

const Output = {
  status: z.enum(['completed', 'processing', 'failed', 'not_found']),
  chat_id: z.string(),
  answer: z.string().optional(),
  tables: z.array(z.object({ name: z.string().describe('The table title'), row_count: z.number(), csv: z.string(), sql: z.string().optional().describe('The query that produced the table') })).optional(),
  queries: z.array(z.object({ connection_id: z.string(), sql: z.string(), ok: z.boolean() })).optional().describe('Every query the answer ran, in order'),
  charts: z.array(z.object({ title: z.string(), spec: z.unknown().optional() })).optional(),
  suggested_wait_seconds: z.number().optional(),
  message: z.string().optional(),
};

/** `get_result`: the answer of a chat, or that it is still processing, or that it does not exist. */
export function registerGetResultTool(server: McpServer, c: McpContext): void {
  server.registerTool(
    'get_result',
    {
      title: 'Get the answer of a question',
      description:
        "Returns the answer of a question started with ask_question: the text answer, its result tables as CSV with the SQL of each query (quote it when you report a number; each table is also a resource to read again by its URI), and its charts. If status is 'processing', call wait with suggested_wait_seconds and ask again; 'not_found' means the chat_id is wrong or belongs to someone else.",
      inputSchema: { chat_id: z.string().min(1).max(200).describe('The chat_id returned by ask_question.') },
      outputSchema: Output,
      annotations: { title: 'Get the answer of a question', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ chat_id }) =>
      safely(c.log, 'get_result', async () => {
        const r = await c.ports.getResult(c.principal, chat_id);
        return render(r, r.status === 'completed' ? await chartImages(r.charts) : []);
      }),
  );
}

/**
 * The charts drawn as PNG (base64) on the server from their Vega-Lite specs, with the renderer the
 * report mails use, so assistants that show images show the chart; undefined where a chart already
 * has an image, has no spec, or does not draw (its spec is still given).
 */
export async function chartImages(charts: ResultChart[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = [];
  for (const ch of charts) {
    const spec = ch.spec;
    const drawable = !ch.png && typeof spec === 'object' && spec !== null && !Array.isArray(spec);
    out.push(drawable ? await chartPng({ spec: spec as Record<string, unknown> }).then((b) => b.toString('base64'), () => undefined) : undefined);
  }
  return out;
}

/** Turns a chat result into structured content plus CSV resources and chart images (`images`: chartImages). */
export function render(r: ChatResult, images: (string | undefined)[] = []): CallToolResult {
  switch (r.status) {
    case 'running':
      return structured({
        status: 'processing',
        chat_id: r.chatId,
        suggested_wait_seconds: SUGGESTED_WAIT_SECONDS,
        message: `Still processing${r.progress ? ` (${r.progress})` : ''}. Call wait for ${SUGGESTED_WAIT_SECONDS} seconds, then get_result again.`,
      });
    case 'not_found':
      return { ...structured({ status: 'not_found', chat_id: r.chatId, message: 'Chat not found.' }), isError: true };
    case 'failed':
      return structured({ status: 'failed', chat_id: r.chatId, message: r.error });
    case 'completed': {
      const tables = r.tables.map((t) => ({ name: t.name, row_count: t.rows.length, csv: toCsv(t.columns, t.rows), ...(t.sql ? { sql: t.sql } : {}) }));
      const queries = (r.queries ?? []).map((q) => ({ connection_id: q.connectionId, sql: q.sql, ok: q.ok }));
      const blocks: CallToolResult['content'] = [
        ...tables.map((t, i): Block => ({
          type: 'resource',
          resource: { uri: resultTableUri(r.chatId, i), mimeType: 'text/csv', text: t.csv },
        })),
        ...r.charts.flatMap((ch, i): Block[] => {
          if (ch.png) return [{ type: 'image', data: ch.png, mimeType: 'image/png' }];
          const drawn = images[i];
          return [{ type: 'text', text: `Chart "${ch.title}": ${JSON.stringify(ch.spec ?? {})}` }, ...(drawn ? [{ type: 'image' as const, data: drawn, mimeType: 'image/png' }] : [])];
        }),
      ];
      const charts = r.charts.map((ch) => (ch.spec === undefined ? { title: ch.title } : { title: ch.title, spec: ch.spec }));
      return structured({ status: 'completed', chat_id: r.chatId, answer: r.answer, tables, charts, queries }, blocks);
    }
  }
}
