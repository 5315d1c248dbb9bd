// The agent's events, documented once. Each is stored in the run's event log with an increasing id
// and streamed as one server-sent event (`id: <id>`, `event: <type>`, `data: <json of the payload>`).

/** Payloads by `type`. */
export type AgentEvent =
  /** First event of a run. */
  | { type: 'run_started'; run_id: string; chat_id: string; message_uuid: string; answer_uuid: string; model: string; environment: string | null }
  /** A piece of the model's text. */
  | { type: 'text_delta'; text: string }
  /** The model called a tool (arguments as parsed JSON, or the raw text when not JSON). */
  | { type: 'tool_call'; call_id: string; name: string; arguments: unknown }
  /** The tool's outcome as returned to the model; `error` with a stable code when it failed. */
  | { type: 'tool_result'; call_id: string; name: string; ok: boolean; summary: string; error?: { code: string; message: string } }
  /** A warehouse query the agent ran (after it succeeded or failed). */
  | { type: 'sql'; call_id: string; connection_id: string; sql: string; ok: boolean; execution_ms?: number }
  /** A result table kept under `df_key` (preview rows only; downloads re-run the query). */
  | { type: 'table'; call_id: string; df_key: string; columns: string[]; rows: unknown[][]; row_count: number; truncated: boolean; formats?: Record<string, string> }
  /** A Vega-Lite chart over a kept table. */
  | { type: 'chart'; call_id: string; chart_id: string; df_key: string; spec: Record<string, unknown> }
  /** Feedback the user sent was given to the model after the current tool execution. */
  | { type: 'feedback_applied'; feedback_id: string; text: string }
  /** The user asked to stop; the agent is wrapping up. */
  | { type: 'stop_requested' }
  /** Something failed (model provider, step limit...); the run still finishes with `completed`. */
  | { type: 'error'; code: string; message: string }
  /** Timeline event: the answer is recorded. `credits` is its cost; `copied_from_chat_id` replaces it for copied answers. */
  | {
      type: 'completed';
      status: 'completed' | 'stopped' | 'failed';
      answer_uuid: string;
      content: string;
      credits?: number;
      copied_from_chat_id?: string;
      usage: { input_tokens: number; output_tokens: number; queries: number };
    };


/** An event as stored and streamed. */
export interface StoredEvent {
  id: number;
  run_id: string;
  chat_id: string;
  created_at: number;
  event: AgentEvent;
}

const serialized = new WeakMap<AgentEvent, string>();
/** The event as JSON, serialized once however often it is stored and sent (events are never changed once emitted). */
export function eventJson(event: AgentEvent): string {
  let json = serialized.get(event);
  if (json === undefined) serialized.set(event, (json = JSON.stringify(event)));
  return json;
}
