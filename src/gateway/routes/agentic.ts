// The agent over HTTP: streamed runs (SSE with resume), steering (feedback, stop), synchronous runs
// and reruns of an answer's queries. Only a chat's owner may follow or steer its runs (others: 404).
import { z } from 'zod';
import { rerunQueries, type RunRow, type StartRunInput } from '../../agent/index.ts';
import type { Principal } from '../../auth/index.ts';
import { ValidationFailed } from '../../errors.ts';
import { clientSignal } from '../client-signal.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { lastEventId, streamRun } from '../sse.ts';

const ChatId = z.string().min(1).max(200);
const Turn = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string().max(100_000) });

/** The longest question; the 422 names it, the web client adds the length that was sent. */
const MAX_QUESTION = 20_000;
const Question = z.string().min(1, 'Type a question first.').max(MAX_QUESTION, `A question is at most ${MAX_QUESTION.toLocaleString('en-US')} characters.`);

const StreamBody = z.object({
  chat_id: ChatId,
  message: Question,
  /** The app editor's state as the client shows it; given to the model as context. */
  preview: z.unknown().optional(),
  /** Starts a quick-fix session: a run from production gets its own throwaway environment. */
  quick_fix: z.boolean().optional(),
});
const AgenticBody = z.object({ chat_id: ChatId, messages: z.array(Turn).min(1).max(200), preview: z.unknown().optional() });
const WithHistoryBody = z.object({ chat_id: ChatId, message: Question, history: z.array(Turn).max(200).optional(), preview: z.unknown().optional() });
const FeedbackBody = z.object({ chat_id: ChatId, feedback: z.string().min(1).max(5_000) });
const StopBody = z.object({ chat_id: ChatId });
const RerunBody = z.object({ chat_id: ChatId, message_uuid: z.string().max(200).optional(), df_key: z.string().max(200).optional() });

const AgenticResponse = z.object({
  chat_id: z.string(),
  run_id: z.string(),
  message_uuid: z.string(),
  answer_uuid: z.string(),
  status: z.enum(['completed', 'stopped', 'failed']),
  content: z.string(),
  credits: z.number(),
  tables: z.array(z.object({ df_key: z.string(), columns: z.array(z.string()), rows: z.array(z.array(z.unknown())), row_count: z.number(), truncated: z.boolean() })),
  charts: z.array(z.object({ chart_id: z.string(), df_key: z.string(), spec: z.record(z.string(), z.unknown()) })),
  sql: z.array(z.object({ connection_id: z.string(), sql: z.string(), ok: z.boolean() })),
  errors: z.array(z.object({ code: z.string(), message: z.string() })),
});

/** Agent routes. */
export function agenticRoutes(s: Services) {
  const start = (principal: Principal, environmentId: string | undefined, input: Omit<StartRunInput, 'environmentId'>) => s.agent.start(principal, { ...input, environmentId });
  const finished = async (principal: Principal, environmentId: string | undefined, input: Omit<StartRunInput, 'environmentId'>) => {
    const started = await start(principal, environmentId, input);
    return responseOf(s, await started.done);
  };
  return [
    route({
      method: 'POST', path: '/api/agentic/stream', operationId: 'agentic_stream', tags: ['agent'], auth: 'user', body: StreamBody, produces: 'text/event-stream',
      summary: 'Sends a message and streams the run as server-sent events (the run goes on if the client disconnects)',
      handler: async ({ body, principal, environmentId, ctx }) => {
        const started = await start(principal, environmentId, { chatId: body.chat_id, message: body.message, appPreview: body.preview, quickFix: body.quick_fix });
        streamRun(ctx, s, started.row, 0);
      },
    }),
    route({
      method: 'GET', path: '/api/agentic/subscribe/{chat_id}', operationId: 'agentic_subscribe', tags: ['agent'], auth: 'user', params: z.object({ chat_id: ChatId }), produces: 'text/event-stream',
      summary: 'Reconnects to the events of the chat\'s latest run, after Last-Event-ID when given',
      handler: async ({ params, principal, ctx }) => {
        streamRun(ctx, s, await s.agent.ownRun(principal, params.chat_id), lastEventId(ctx));
      },
    }),
    route({
      method: 'POST', path: '/api/agentic/feedback', operationId: 'agentic_feedback', tags: ['agent'], auth: 'user', body: FeedbackBody,
      summary: 'Sends feedback to the running agent; it is given to the model after the current tool execution',
      response: z.object({ status: z.enum(['queued', 'not_running']), feedback_id: z.string().nullable() }),
      handler: ({ body, principal }) => s.agent.feedback(principal, body.chat_id, body.feedback),
    }),
    route({
      method: 'POST', path: '/api/agentic/stop', operationId: 'agentic_stop', tags: ['agent'], auth: 'user', body: StopBody,
      summary: 'Asks the running agent to wrap up with a short summary',
      response: z.object({ status: z.enum(['stopping', 'not_running']), run_id: z.string() }),
      handler: ({ body, principal }) => s.agent.stop(principal, body.chat_id),
    }),
    route({
      method: 'POST', path: '/api/agentic', operationId: 'agentic', tags: ['agent'], auth: 'user', body: AgenticBody, response: AgenticResponse,
      summary: 'Runs the agent synchronously on the last user message and returns the complete response',
      handler: ({ body, principal, environmentId }) => {
        const last = body.messages[body.messages.length - 1]!;
        if (last.role !== 'user') throw new ValidationFailed([{ loc: ['body', 'messages', body.messages.length - 1, 'role'], msg: 'The last message must come from the user', type: 'value_error' }]);
        const history = body.messages.slice(0, -1).filter((m): m is { role: 'user' | 'assistant'; content: string } => m.role !== 'system');
        return finished(principal, environmentId, { chatId: body.chat_id, message: last.content, history, appPreview: body.preview });
      },
    }),
    route({
      method: 'POST', path: '/api/agentic_with_history', operationId: 'agentic_with_history', tags: ['agent'], auth: 'user', body: WithHistoryBody,
      response: AgenticResponse.extend({ history: z.array(z.object({ role: z.string(), content: z.string() })) }),
      summary: 'Runs the agent synchronously with the chat\'s history (or the given one) and returns the response and the history',
      handler: async ({ body, principal, environmentId }) => {
        const history = body.history?.filter((m): m is { role: 'user' | 'assistant'; content: string } => m.role !== 'system');
        const res = await finished(principal, environmentId, { chatId: body.chat_id, message: body.message, history, appPreview: body.preview });
        return { ...res, history: await s.agentPorts.chats.history(principal, body.chat_id) };
      },
    }),
    route({
      method: 'POST', path: '/api/rerun_agentic_query', operationId: 'rerun_agentic_query', tags: ['agent'], auth: 'user', body: RerunBody,
      summary: 'Runs the queries of an agent answer again on fresh data, with the caller\'s permissions',
      handler: async ({ body, principal, ctx }) => {
        const run = await runOfAnswer(s, principal, body.chat_id, body.message_uuid);
        const events = (await s.agent.events(run)).map((e) => e.event);
        const deps = { queries: s.agentPorts.queries, rowLimit: s.config.agent.rowLimit, signal: clientSignal(ctx) };
        const tables = await rerunQueries(deps, principal, run, events, body.df_key);
        return { chat_id: body.chat_id, answer_uuid: run.answer_uuid, tables };
      },
    }),
  ];
}

/** The run that produced an answer (by the answer's or the question's uuid), or the latest run. */
async function runOfAnswer(s: Services, principal: Principal, chatId: string, messageUuid: string | undefined): Promise<RunRow> {
  if (!messageUuid) return s.agent.ownRun(principal, chatId);
  const row = await s.agent.ownRunOfMessage(principal, chatId, messageUuid);
  if (!row) throw new ValidationFailed([{ loc: ['body', 'message_uuid'], msg: 'No agent answer with this message_uuid in the chat', type: 'value_error' }]);
  return row;
}

/** The complete response of a finished run. */
async function responseOf(s: Services, run: RunRow) {
  const r = await s.agent.result(run);
  return {
    chat_id: run.chat_id,
    run_id: run.id,
    message_uuid: run.message_uuid,
    answer_uuid: run.answer_uuid,
    status: r.status,
    content: r.content,
    credits: r.credits,
    tables: r.tables.map((t) => ({ df_key: t.dfKey, columns: t.columns, rows: t.rows, row_count: t.rowCount, truncated: t.truncated })),
    charts: r.charts.map((c) => ({ chart_id: c.chartId, df_key: c.dfKey, spec: c.spec })),
    sql: r.queries.map((q) => ({ connection_id: q.connectionId, sql: q.sql, ok: q.ok })),
    errors: r.errors,
  };
}
