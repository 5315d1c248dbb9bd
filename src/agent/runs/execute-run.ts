// One run from context to recorded answer: build the context, run the loop, price it, record the
// answer in the chat and the usage, then emit `completed`.
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import type { AgentConfig } from '../../config.ts';
import type { Logger } from '../../log.ts';
import type { AgentEvent } from '../events.ts';
import { buildContext } from '../loop/build-context.ts';
import { runAgentLoop, type AgentLoopResult } from '../loop/run-agent.ts';
import type { AgentPorts, AnswerRecord } from '../ports.ts';
import type { LlmMessage, LlmProvider } from '../providers/types.ts';
import { newRunState, type AgentTool, type RunState } from '../tools/index.ts';
import { computeCredits } from './credits.ts';
import { finishRunQuery, insertUsageQuery, markFeedbackApplied, type NewRunRow } from './event-log.ts';
import type { AgentStore } from './tables.ts';

export interface ActiveRun {
  row: NewRunRow;
  principal: Principal;
  /** The id of its run_started: every event of the run comes at or after it. */
  firstEventId: number;
  /** Feedback not yet given to the model; `stored` settles when its row is (it is marked applied after). */
  feedback: { id: string; text: string; stored: Promise<void> }[];
  /** Graceful stop (POST /api/agentic/stop). */
  stop: AbortController;
  /** Hard stop (shutdown). */
  hardStop: AbortController;
  stopAnnounced: boolean;
  /** Another replica failed the run as lost: this one adds nothing more to its log. */
  lost?: boolean;
  /** Its end is being written (record below): not running in the store any more, still at work here. */
  ending?: boolean;
}

export interface ExecuteDeps {
  store: AgentStore;
  clock: Clock;
  log: Logger;
  config: AgentConfig;
  provider: LlmProvider;
  ports: AgentPorts;
  tools: AgentTool[];
  emit(e: AgentEvent): void;
}

/** `history`: the turns the client gave; else the chat's, read here (off the path to `run_started`). */
type RunInput = { message: string; environmentId: string | undefined; environmentName: string | undefined; appPreview?: unknown; history?: { role: 'user' | 'assistant'; content: string }[] };

/**
 * Executes a started run to its end; the answer is recorded even when the model failed. False when
 * another replica had meanwhile failed the run as lost (this one was cut off from the store too long):
 * its end stays, and this replica records and emits nothing more.
 */
export async function executeRun(deps: ExecuteDeps, run: ActiveRun, input: RunInput): Promise<boolean> {
  const state = newRunState();
  let result = await answer(deps, run, input, state);
  if (result.status === 'completed' && run.stop.signal.aborted) result = { ...result, status: 'stopped' };
  const credits = computeCredits(result.usage, state.queries, deps.config.credits);
  if (!(await record(deps, run, state, result, credits))) return false;
  deps.emit({
    type: 'completed',
    status: result.status,
    answer_uuid: run.row.answer_uuid,
    content: result.text,
    credits,
    usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens, queries: state.queries },
  });
  return true;
}

/** Builds the context and runs the loop; a context that cannot be built still ends in an answer. */
async function answer(deps: ExecuteDeps, run: ActiveRun, input: RunInput, state: RunState): Promise<AgentLoopResult> {
  const { store, clock, config, ports, emit, log } = deps;
  try {
    const system = await buildContext(ports, state, {
      principal: run.principal,
      environmentId: input.environmentId,
      environmentName: input.environmentName,
      question: input.message,
      appPreview: input.appPreview,
      nowMs: clock.now(),
    });
    // The question is in the chat already (claim-chat.ts): left out, it goes last below.
    const history = input.history ?? (await ports.chats.history(run.principal, run.row.chat_id, { without: run.row.message_uuid }));
    const messages: LlmMessage[] = [...history.map((h) => ({ role: h.role, content: h.content })), { role: 'user', content: input.message }];
    return await runAgentLoop({
      provider: deps.provider,
      tools: deps.tools,
      system,
      messages,
      toolContext: { principal: run.principal, environmentId: input.environmentId, chatId: run.row.chat_id, ports, rowLimit: config.rowLimit, state, emit },
      maxSteps: config.maxSteps,
      toolTimeoutMs: config.toolTimeoutMs,
      maxTokens: config.maxOutputTokens,
      signal: run.hardStop.signal,
      control: {
        takeFeedback: () => {
          const taken = run.feedback.splice(0);
          // Only a mark for the record: the loop does not wait for it.
          const at = clock.now();
          for (const f of taken) void f.stored.then(() => markFeedbackApplied(store, f.id, at)).catch((err: unknown) => log.warn({ err, run_id: run.row.id }, 'could not mark feedback applied'));
          return taken.map(({ id, text }) => ({ id, text }));
        },
        stopRequested: () => run.stop.signal.aborted,
        stopSignal: run.stop.signal,
      },
      emit,
    });
  } catch (err) {
    // Context building failed (knowledge unreachable...): the chat still gets an answer.
    const code = (err as { code?: unknown }).code;
    const error = { code: typeof code === 'string' ? code : 'AGENT_FAILED', message: err instanceof Error ? err.message : 'The agent failed' };
    emit({ type: 'error', ...error });
    return { status: 'failed', text: `The answer could not be completed: ${error.message}`, usage: { inputTokens: 0, outputTokens: 0 }, error };
  }
}

/**
 * Records the run's end and its usage in one commit, then the answer in the chat (a transaction of the
 * chats' store, which may be another database); the end stays when the answer cannot be recorded.
 * False, recording nothing, for a run another replica already ended.
 */
async function record(deps: ExecuteDeps, run: ActiveRun, state: RunState, result: AgentLoopResult, credits: number): Promise<boolean> {
  const { store: x, clock, ports } = deps;
  const now = clock.now();
  const recordAnswer = () =>
    ports.chats.recordAnswer(run.principal, {
      chatId: run.row.chat_id,
      content: result.text,
      messageUuid: run.row.answer_uuid,
      answer: answerRecord(state),
      credits,
      knowledgeCommit: state.knowledgeCommit,
      knowledgeItems: [...state.knowledgeItems.values()],
    });
  const finish = () =>
    x.batch([finishRunQuery(x, run.row.id, result.status, result.text, now), insertUsageQuery(x, {
      run_id: run.row.id,
      org_id: run.row.org_id,
      user_id: run.row.user_id,
      provider: run.row.provider,
      model: run.row.model,
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      queries: state.queries,
      credits,
      created_at: now,
    })], { require: [0] });
  // Before the write: a heartbeat that no longer finds the run running must not take it for lost.
  run.ending = true;
  try {
    if (!(await finish()).ok) {
      deps.log.warn({ run_id: run.row.id }, 'an agent run of this replica was failed as lost by another one');
      return false;
    }
  } catch (err) {
    deps.log.warn({ err, run_id: run.row.id }, 'could not record the end of a run (store closed?)');
  }
  try {
    await recordAnswer();
  } catch (err) {
    deps.log.error({ err, run_id: run.row.id }, 'could not record the answer');
    deps.emit({ type: 'error', code: 'ANSWER_NOT_RECORDED', message: 'The answer could not be saved in the chat' });
  }
  return true;
}

/** The answer's tables and charts in the chats module's shape. */
export function answerRecord(state: RunState): AnswerRecord {
  const tables = [...state.dataframes.values()].map((d) => ({
    df_key: d.dfKey,
    ...(d.title ? { title: d.title } : {}),
    sql: d.sql,
    connection_id: d.connectionId,
    dialect: d.dialect,
    columns: d.columns,
    row_count: d.rowCount,
    preview: d.rows.slice(0, 100),
    ...(d.formats ? { formats: d.formats } : {}),
  }));
  const last = tables[tables.length - 1];
  return {
    ...(last ? { sql: last.sql, connection_id: last.connection_id, dialect: last.dialect } : {}),
    tables,
    charts: state.charts.map((c) => ({ chart_id: c.chartId, df_key: c.dfKey, type: c.type, spec: c.spec })),
  };
}
