// What the SQL editor opens with: a saved question as the person may read it, the SQL and connection
// of an answer's table (as chats keep it; GET /api/c2 applies the chat's access rules), or nothing.
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import type { EditorOpening } from './sql-paths.ts';

export type SavedQuestion = ResponseOf<'/api/saved_questions/{id}', 'get'>;
export type Chart = Record<string, unknown> | null;

export interface EditorSource {
  sql: string;
  connectionId: string | undefined;
  chart: Chart;
  /** The saved question being edited, when the editor opened one. */
  question: SavedQuestion | undefined;
}

const EMPTY: EditorSource = { sql: '', connectionId: undefined, chart: null, question: undefined };
const isSpec = (spec: unknown): spec is Record<string, unknown> => typeof spec === 'object' && spec !== null && !Array.isArray(spec);

/** Reads what `at` names; an answer without SQL opens empty. */
export async function loadEditorSource(at: EditorOpening, signal: AbortSignal): Promise<EditorSource> {
  if ('question' in at && at.question) {
    const q = await call(api.GET('/api/saved_questions/{id}', { params: { path: { id: at.question } }, signal }));
    return { sql: q.sql, connectionId: q.connection_id, chart: q.chart ?? null, question: q };
  }
  if ('chat' in at && at.chat && at.answer) {
    const page = await call(api.GET('/api/c2/{chat_id}', { params: { path: { chat_id: at.chat }, query: { message_uuid: at.answer } }, signal }));
    const answer = page.messages.find((m) => m.message_uuid === at.answer)?.answer;
    const table = answer?.tables.find((t) => t.df_key === at.df) ?? answer?.tables[0];
    if (!table) return EMPTY;
    const chart = answer?.charts.find((c) => c.df_key === table.df_key)?.spec;
    return { sql: table.sql, connectionId: table.connection_id, chart: isSpec(chart) ? chart : null, question: undefined };
  }
  return EMPTY;
}
