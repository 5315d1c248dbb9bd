// The agent events of events.ts as a zod schema, for the API reference (the payloads of the streamed
// events). The type checks at the end fail the build when the two disagree in either direction.
import { z } from 'zod';
import type { AgentEvent } from './events.ts';

const event = <T extends string, S extends z.ZodRawShape>(type: T, description: string, shape: S) =>
  z.object({ type: z.literal(type), ...shape }).describe(description);

export const AgentEventSchema = z.discriminatedUnion('type', [
  event('run_started', 'First event of a run.', {
    run_id: z.string(),
    chat_id: z.string(),
    message_uuid: z.string(),
    answer_uuid: z.string(),
    model: z.string(),
    environment: z.string().nullable(),
  }),
  event('text_delta', "A piece of the model's text.", { text: z.string() }),
  event('tool_call', 'The model called a tool (arguments as parsed JSON, or the raw text when not JSON).', { call_id: z.string(), name: z.string(), arguments: z.unknown() }),
  event('tool_result', "The tool's outcome as returned to the model; `error` with a stable code when it failed.", {
    call_id: z.string(),
    name: z.string(),
    ok: z.boolean(),
    summary: z.string(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  }),
  event('sql', 'A warehouse query the agent ran (after it succeeded or failed).', {
    call_id: z.string(),
    connection_id: z.string(),
    sql: z.string(),
    ok: z.boolean(),
    execution_ms: z.number().optional(),
  }),
  event('table', 'A result table kept under `df_key` (preview rows only; downloads re-run the query).', {
    call_id: z.string(),
    df_key: z.string(),
    columns: z.array(z.string()),
    rows: z.array(z.array(z.unknown())),
    row_count: z.number(),
    truncated: z.boolean(),
    formats: z.record(z.string(), z.string()).optional().describe('Display format of the columns that show a governed metric or that the query said how to show (a share as percent), by column: integer, decimal, percent or a currency code (USD); the values stay raw'),
  }),
  event('chart', 'A Vega-Lite chart over a kept table.', { call_id: z.string(), chart_id: z.string(), df_key: z.string(), spec: z.record(z.string(), z.unknown()) }),
  event('feedback_applied', 'Feedback the user sent was given to the model after the current tool execution.', { feedback_id: z.string(), text: z.string() }),
  event('stop_requested', 'The user asked to stop; the agent is wrapping up.', {}),
  event('error', 'Something failed (model provider, step limit...); the run still finishes with `completed`.', { code: z.string(), message: z.string() }),
  event('completed', 'Timeline event, always the last: the answer is recorded. `credits` is its cost; `copied_from_chat_id` replaces it for copied answers.', {
    status: z.enum(['completed', 'stopped', 'failed']),
    answer_uuid: z.string(),
    content: z.string(),
    credits: z.number().optional(),
    copied_from_chat_id: z.string().optional(),
    usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), queries: z.number() }),
  }),
]);

type Schema = z.output<typeof AgentEventSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Fails to type-check when an event does not fit the schema or the schema allows what is no event.
export const SCHEMA_MATCHES_EVENTS: Same<AgentEvent, Schema> = true;
