// Copying an answer into another chat: the question and its answer are appended to the target as a
// new pair whose answer names the chat it came from (`copied_from_chat_id`, in place of credits: a
// copy costs nothing). Both chats are the caller's own; the target is created when it does not exist.
// The answer keeps its tables, SQL and knowledge commit, so downloads from the copy re-run the same
// queries under the downloader's permissions, as from the original.
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { ValidationFailed } from '../errors.ts';
import { appendMessage, recordAnswer } from './append-message.ts';
import { MessageNotFound } from './errors.ts';
import { blocksOf } from './message-order.ts';
import { ownChat, type ChatDeps, type MessageRow } from './rows.ts';
import type { AnswerInput, ChatMessage, KnowledgeItem } from './schemas.ts';

export interface CopyAnswerInput {
  chatId: string;
  messageUuid: string;
  targetChatId: string;
}

export interface CopiedAnswer {
  chat_id: string;
  message_uuid: string;
  copied_from_chat_id: string;
}

/** Appends the answer `messageUuid` of the caller's chat, with its question, to their chat `targetChatId`. */
export async function copyAnswer(deps: ChatDeps, principal: Principal, input: CopyAnswerInput): Promise<CopiedAnswer> {
  if (input.targetChatId === input.chatId) {
    throw new ValidationFailed([{ loc: ['body', 'target_chat_id'], msg: 'Choose another chat than the one the answer is in', type: 'value_error' }]);
  }
  const { question, answer } = await answerPair(deps, principal, input);
  const target = { chatId: input.targetChatId, agentic: true };
  // The first write creates the target, or fails (not found) when that id is someone else's chat.
  if (question) await appendMessage(deps, principal, { ...target, role: 'user', content: question.content });
  const copy: ChatMessage = await recordAnswer(deps, principal, {
    ...target,
    content: answer.content,
    copiedFromChatId: input.chatId,
    ...(answer.answer === null ? {} : { answer: JSON.parse(answer.answer) as AnswerInput }),
    ...(answer.knowledge_commit === null ? {} : { knowledgeCommit: answer.knowledge_commit }),
    ...(answer.knowledge_items === null ? {} : { knowledgeItems: JSON.parse(answer.knowledge_items) as KnowledgeItem[] }),
  });
  return { chat_id: input.targetChatId, message_uuid: copy.message_uuid, copied_from_chat_id: input.chatId };
}

/** A displayed answer of the caller's chat and the question it answers (none when the answer opens the chat). */
async function answerPair(deps: ChatDeps, principal: Principal, { chatId, messageUuid }: CopyAnswerInput): Promise<{ question: MessageRow | undefined; answer: MessageRow }> {
  const chat = await ownChat(deps.store, principal, chatId);
  const rows = await deps.store.all(sql<MessageRow>`SELECT * FROM chat_messages WHERE chat_pk = ${chat.id} AND displayed = 1 ORDER BY position, id`);
  const block = blocksOf(rows).find((b) => b.some((m) => m.message_uuid === messageUuid));
  const answer = block?.find((m) => m.message_uuid === messageUuid);
  if (!answer || answer.role !== 'assistant') throw new MessageNotFound();
  return { question: block!.find((m) => m.role === 'user'), answer };
}
