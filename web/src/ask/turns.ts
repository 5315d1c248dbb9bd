// A chat's messages as the page shows them: turns of a question and the answer that follows it. A
// person may delete either one, so a turn can lack its question or its answer.
import type { ResponseOf } from '../api/types.ts';
import { answerFromMessage, type AnswerState } from './answer-state.ts';

type ChatMessage = ResponseOf<'/api/c2/{chat_id}', 'get'>['messages'][number];

export interface Turn {
  key: string;
  /** The question's message, once known (a live question learns it from the run's first event). */
  questionUuid?: string | undefined;
  /** Absent when the question was deleted. */
  question?: string | undefined;
  /** Absent when the answer was deleted (or none was recorded). */
  answer?: AnswerState | undefined;
}

/** Turns from recorded messages; `unanswered` when the last message is a question. */
export function toTurns(messages: ChatMessage[]): { turns: Turn[]; unanswered: boolean } {
  const turns: Turn[] = [];
  for (const m of messages) {
    const last = turns.at(-1);
    if (m.role === 'user') turns.push({ key: m.message_uuid, questionUuid: m.message_uuid, question: m.content });
    else if (m.role === 'assistant' && last && last.question !== undefined && !last.answer) last.answer = answerFromMessage(m);
    else if (m.role === 'assistant') turns.push({ key: m.message_uuid, answer: answerFromMessage(m) });
  }
  return { turns, unanswered: messages.at(-1)?.role === 'user' };
}
