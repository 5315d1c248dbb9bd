// A question's outcome from its replies, in the order they came (the answer, then the follow-up when
// the answer was unusable): the first usable reply is scored; without one the question ends in error.
// Regrading calls this again on the stored replies, so it never asks the agent twice.
import type { AnswerValue } from '../../shared/answer-value.ts';
import type { SuiteQuestion } from '../../shared/evaluation-suite.ts';
import { observe, type ReplyEvidence } from './observe.ts';
import { score } from './score.ts';

/** A reply as stored with its result. */
export interface StoredReply extends ReplyEvidence {
  status: 'completed' | 'stopped' | 'failed';
}

export type ErrorReason = 'no_answer' | 'ambiguous' | 'refused' | 'timeout' | 'agent_failed' | 'cancelled' | 'access_lost';

export type Outcome =
  | { result: 'pass' | 'fail'; observed: AnswerValue; source: 'table' | 'text'; relative_diff: number | null }
  | { result: 'error'; error: ErrorReason };

/** True when a reply holds an answer the question can be scored on (else the runner follows up once). */
export function usable(q: SuiteQuestion, reply: StoredReply): boolean {
  return observe(reply, q.question, q.answer_type).usable;
}

/** Scores the first usable reply; without one, the reason of the last. */
export function grade(q: SuiteQuestion, replies: StoredReply[]): Outcome {
  let reason: ErrorReason = 'no_answer';
  for (const reply of replies) {
    const seen = observe(reply, q.question, q.answer_type);
    if (seen.usable) return { ...score(q, seen.value), observed: seen.value, source: seen.source };
    reason = reply.status === 'failed' ? 'agent_failed' : seen.reason;
  }
  return { result: 'error', error: reason };
}
