// One answer as the page shows it, built from the agent's events (live or replayed) or from a
// recorded message of the chat's history. Pure functions: the same events give the same answer.
import type { AgentEvent } from '../../../src/agent/events.ts';
import type { ResponseOf } from '../api/types.ts';

export type { AgentEvent };
type ChatMessage = ResponseOf<'/api/c2/{chat_id}', 'get'>['messages'][number];

export interface ToolStep {
  callId: string;
  name: string;
  state: 'running' | 'done' | 'failed';
  summary: string;
}

export interface ResultTable {
  dfKey: string;
  columns: string[];
  rows: unknown[][];
  rowCount: number;
  truncated: boolean;
  sql: string | undefined;
  /** Display formats of the columns that show a governed metric (a currency code, integer, decimal, percent). */
  formats?: Record<string, string> | undefined;
  /** Kept for the download links, which re-run the query under the caller's permissions. */
}

export interface ResultChart {
  chartId: string;
  dfKey: string | undefined;
  spec: Record<string, unknown>;
}

export interface AnswerState {
  answerUuid: string | undefined;
  text: string;
  steps: ToolStep[];
  /** SQL by tool call, so each table shows the query that made it. */
  sqlByCall: Record<string, string>;
  queries: { callId: string; sql: string; ok: boolean }[];
  tables: (ResultTable & { callId: string })[];
  charts: ResultChart[];
  errors: { code: string; message: string }[];
  feedback: string[];
  stopping: boolean;
  status: 'running' | 'completed' | 'stopped' | 'failed';
  credits: number | undefined;
  copiedFromChatId: string | undefined;
  lastEventId: number;
}

export const emptyAnswer = (): AnswerState => ({
  answerUuid: undefined,
  text: '',
  steps: [],
  sqlByCall: {},
  queries: [],
  tables: [],
  charts: [],
  errors: [],
  feedback: [],
  stopping: false,
  status: 'running',
  credits: undefined,
  copiedFromChatId: undefined,
  lastEventId: 0,
});

/** The answer after one more event. Events at or below the last id are ignored (replays). */
export function applyEvent(a: AnswerState, id: number, e: AgentEvent): AnswerState {
  if (id <= a.lastEventId) return a;
  const next = { ...a, lastEventId: id };
  switch (e.type) {
    case 'run_started':
      return { ...next, answerUuid: e.answer_uuid };
    case 'text_delta':
      return { ...next, text: a.text + e.text };
    case 'tool_call':
      return { ...next, steps: [...a.steps, { callId: e.call_id, name: e.name, state: 'running', summary: '' }] };
    case 'tool_result':
      return { ...next, steps: a.steps.map((s) => (s.callId === e.call_id ? { ...s, state: e.ok ? 'done' : 'failed', summary: e.error?.message ?? e.summary } : s)) };
    case 'sql':
      return { ...next, sqlByCall: { ...a.sqlByCall, [e.call_id]: e.sql }, queries: [...a.queries, { callId: e.call_id, sql: e.sql, ok: e.ok }] };
    case 'table':
      return {
        ...next,
        tables: [...a.tables, { callId: e.call_id, dfKey: e.df_key, columns: e.columns, rows: e.rows, rowCount: e.row_count, truncated: e.truncated, sql: a.sqlByCall[e.call_id], formats: e.formats }],
      };
    case 'chart':
      return { ...next, charts: [...a.charts, { chartId: e.chart_id, dfKey: e.df_key, spec: e.spec }] };
    case 'feedback_applied':
      return { ...next, feedback: [...a.feedback, e.text] };
    case 'stop_requested':
      return { ...next, stopping: true };
    case 'error':
      return { ...next, errors: [...a.errors, { code: e.code, message: e.message }] };
    case 'completed':
      return {
        ...next,
        status: e.status,
        answerUuid: e.answer_uuid,
        // The recorded content is authoritative (a wrap-up may differ from the streamed pieces).
        text: e.content || a.text,
        credits: e.credits,
        copiedFromChatId: e.copied_from_chat_id,
        steps: a.steps.map((s) => (s.state === 'running' ? { ...s, state: 'done' } : s)),
      };
  }
}

/** A recorded answer of the chat's history, shown like a finished live one. */
export function answerFromMessage(m: ChatMessage): AnswerState {
  const tables = (m.answer?.tables ?? []).map((t) => ({
    callId: t.df_key,
    dfKey: t.df_key,
    columns: t.columns ?? [],
    rows: t.preview ?? [],
    rowCount: t.row_count ?? (t.preview ?? []).length,
    truncated: (t.row_count ?? 0) > (t.preview ?? []).length,
    sql: t.sql,
    formats: t.formats,
  }));
  return {
    ...emptyAnswer(),
    answerUuid: m.message_uuid,
    text: m.content,
    tables,
    queries: tables.map((t) => ({ callId: t.callId, sql: t.sql ?? '', ok: true })),
    charts: (m.answer?.charts ?? []).map((c) => ({ chartId: c.chart_id, dfKey: c.df_key, spec: (c.spec ?? {}) as Record<string, unknown> })),
    status: 'completed',
    credits: m.credits ?? undefined,
    copiedFromChatId: m.copied_from_chat_id ?? undefined,
  };
}
