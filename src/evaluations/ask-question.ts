// One question of a run: a new hidden chat per attempt, the question, one follow-up when the reply
// gives no usable answer, then the outcome written over the pending row. A question cut short by a
// shutdown stays pending (the next start asks it again); one cut short by a cancel is closed by the cancel.
import type { Principal } from '../auth/index.ts';
import type { SuiteQuestion } from '../shared/evaluation-suite.ts';
import type { EvaluationDeps } from './deps.ts';
import type { AgentReply } from './ports.ts';
import { grade, usable, type Outcome, type StoredReply } from './scoring/grade.ts';
import { finishResult, startAttempt } from './store/results-store.ts';
import type { RunRow } from './store/runs-store.ts';

/** The one follow-up sent when the first reply asks for clarification or gives no usable answer. */
export const FOLLOW_UP =
  'Please answer now with your best estimate as a single value (one number, or one date as YYYY-MM-DD), without asking for clarification. Where the question is ambiguous, take the most common reading and say which one you took.';

export interface QuestionJob {
  run: RunRow;
  question: SuiteQuestion;
  principal: Principal;
  /** Aborted when the run is cancelled. */
  cancelled: AbortSignal;
}

/** The chat of one attempt at a question; openable by id, hidden from the user's history. */
export const chatIdOf = (runId: string, questionId: string, attempt: number) => `${chatPrefixOf(runId, questionId)}${attempt}`;
const chatPrefixOf = (runId: string, questionId: string) => `${runId}:${questionId}:`;

/** Asks one pending question and records its outcome. */
export async function askQuestion(deps: EvaluationDeps, job: QuestionJob): Promise<void> {
  const { store, clock, log, shutdown } = deps;
  const { run, question: q } = job;
  if (shutdown.aborted || job.cancelled.aborted) return;
  const attempt = await startAttempt(store, run.id, q.id, chatPrefixOf(run.id, q.id), clock.now());
  if (attempt === 0) return;
  const timeout = AbortSignal.timeout(deps.config.questionTimeoutMs);
  const signal = AbortSignal.any([job.cancelled, shutdown, timeout]);
  const replies: StoredReply[] = [];
  const sql: string[] = [];
  const ask = async (message: string) => {
    const reply = await deps.ports.agent.ask(job.principal, { chatId: chatIdOf(run.id, q.id, attempt), message, environmentId: run.target_env_id ?? undefined, commit: run.target_commit, signal });
    replies.push(evidenceOf(reply));
    sql.push(...reply.sql);
    return replies[replies.length - 1]!;
  };
  try {
    const first = await ask(q.question);
    if (!signal.aborted && !usable(q, first)) await ask(FOLLOW_UP);
  } catch (err) {
    if (!signal.aborted) log.warn({ err, run_id: run.id, question_id: q.id }, 'an evaluation question could not be asked');
    replies.push({ status: 'failed', text: '' });
  }
  if (shutdown.aborted || job.cancelled.aborted) return;
  let outcome: Outcome = grade(q, replies);
  if (outcome.result === 'error' && timeout.aborted) outcome = { result: 'error', error: 'timeout' };
  if (await finishResult(store, run.id, q.id, { outcome, replies, sql, followedUp: replies.length > 1, at: clock.now() })) {
    log.debug({ run_id: run.id, question_id: q.id, attempt, result: outcome.result }, 'evaluation question finished');
  }
}

/** What is kept of a reply: its text, whether it ran a query, and the value of a one-row, one-column result. */
function evidenceOf(reply: AgentReply): StoredReply {
  const t = reply.table;
  const single = t && t.row_count === 1 && t.columns.length === 1 && t.rows[0] !== undefined;
  return { status: reply.status, text: reply.text, queried: reply.sql.length > 0, ...(single ? { cell: jsonSafe(t.rows[0]![0]) } : {}) };
}

const jsonSafe = (v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : v);
