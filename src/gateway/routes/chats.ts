// Chat routes (interface part 4, "Chat, queries and files"): history, search, loading in pair
// pages, and the owner's changes. Every handler is one call into src/chats.
import { z } from 'zod';
import {
  addLabelToChat,
  archiveChat,
  ChatHistoryResponse,
  ChatPage,
  ChatSearchResponse,
  ChatSummary,
  chatHistory,
  copyAnswer,
  deleteMessage,
  dismissChatCompletion,
  loadChat,
  pinChat,
  recordFeedback,
  saveMessageOrder,
  searchChats,
} from '../../chats/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

export const ChatId = z.string().min(1).max(200);
export const MessageUuid = z.string().min(1).max(200);

/** A boolean query parameter: true/false/1/0. */
export const QueryBool = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

const Ok = z.object({ status: z.literal('ok') });

/** Routes of the chat list, search, loading and the owner's changes. */
export function chatRoutes(s: Services) {
  const deps = s.chats;
  const user = { auth: 'user' as const, tags: ['chats'] };
  return [
    route({
      ...user,
      method: 'GET',
      path: '/api/chat_history',
      operationId: 'chat_history',
      summary: 'The caller\'s chats, newest first; the first page also carries pinned and recently archived chats',
      query: z.object({ cursor: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(500).default(40) }),
      response: ChatHistoryResponse,
      handler: ({ query, principal }) => chatHistory(deps, principal, { ...query, cursorKey: s.config.secrets.jwtKey }),
    }),
    route({
      ...user,
      method: 'GET',
      path: '/api/search_chats',
      operationId: 'search_chats',
      summary: 'Full-text search over the caller\'s own chats',
      query: z.object({ q: z.string().min(1).max(200), limit: z.coerce.number().int().min(1).max(100).default(30) }),
      response: ChatSearchResponse,
      handler: ({ query, principal }) => searchChats(deps, principal, query),
    }),
    route({
      ...user,
      method: 'GET',
      path: '/api/c2/{chat_id}',
      operationId: 'load_chat',
      summary: 'Loads a chat in pair pages (owner, or admins and modelers of its organization)',
      params: z.object({ chat_id: ChatId }),
      query: z.object({
        include_all: QueryBool,
        pairs: z.coerce.number().int().min(1).max(50).optional(),
        offset: z.coerce.number().int().min(0).default(0),
        page_only: QueryBool,
        message_uuid: MessageUuid.optional(),
      }),
      response: ChatPage,
      handler: ({ params, query, principal }) =>
        loadChat(deps, principal, params.chat_id, {
          includeAll: query.include_all,
          offset: query.offset,
          pageOnly: query.page_only,
          ...(query.pairs === undefined ? {} : { pairs: query.pairs }),
          ...(query.message_uuid === undefined ? {} : { messageUuid: query.message_uuid }),
        }),
    }),
    route({
      ...user,
      method: 'POST',
      path: '/api/pinChat',
      operationId: 'pin_chat',
      summary: 'Pins or unpins a chat',
      body: z.object({ chat_id: ChatId, pinned: z.boolean().default(true) }),
      response: ChatSummary,
      handler: ({ body, principal }) => pinChat(deps, principal, { chatId: body.chat_id, pinned: body.pinned }),
    }),
    route({
      ...user,
      method: 'POST',
      path: '/api/archive_chat',
      operationId: 'archive_chat',
      summary: 'Archives or unarchives a chat',
      body: z.object({ chat_id: ChatId, archived: z.boolean().default(true) }),
      response: ChatSummary,
      handler: ({ body, principal }) => archiveChat(deps, principal, { chatId: body.chat_id, archived: body.archived }),
    }),
    route({
      ...user,
      method: 'POST',
      path: '/api/dismiss_chat_completion',
      operationId: 'dismiss_chat_completion',
      summary: 'Clears a chat\'s recently_completed flag',
      body: z.object({ chat_id: ChatId }),
      response: ChatSummary,
      handler: ({ body, principal }) => dismissChatCompletion(deps, principal, { chatId: body.chat_id }),
    }),
    route({
      ...user,
      method: 'POST',
      path: '/api/add_label_to_chat',
      operationId: 'add_label_to_chat',
      summary: 'Adds a label to a chat (or removes it with remove=true)',
      body: z.object({ chat_id: ChatId, label: z.string().trim().min(1).max(50), remove: z.boolean().default(false) }),
      response: ChatSummary,
      handler: ({ body, principal }) => addLabelToChat(deps, principal, { chatId: body.chat_id, label: body.label, remove: body.remove }),
    }),
    route({
      ...user,
      method: 'POST',
      path: '/api/deleteMessage',
      operationId: 'delete_message',
      summary: 'Deletes a message of a chat',
      body: z.object({ chat_id: ChatId, message_uuid: MessageUuid }),
      response: Ok,
      handler: async ({ body, principal }) => {
        await deleteMessage(deps, principal, { chatId: body.chat_id, messageUuid: body.message_uuid });
        return { status: 'ok' as const };
      },
    }),
    route({
      ...user,
      method: 'POST',
      path: '/api/copy_message_to_chat',
      operationId: 'copy_message_to_chat',
      summary: 'Copies an answer, with the question it answers, into another of the caller\'s chats (created when new)',
      description:
        'Both chats are the caller\'s own (another user\'s chat, or another organization\'s, answers 404 as a missing one). The copy is appended as a new pair; ' +
        'its answer carries `copied_from_chat_id` (the source chat) instead of `credits`, and keeps its tables, SQL and knowledge commit. A target equal to the source answers 422.',
      body: z.object({
        chat_id: ChatId.describe('The chat the answer is in'),
        message_uuid: MessageUuid.describe('The answer (an assistant message) to copy'),
        target_chat_id: ChatId.describe('The chat to copy it into; a new id starts a new chat'),
      }),
      response: z.object({ chat_id: z.string(), message_uuid: z.string().describe('The copied answer in the target chat'), copied_from_chat_id: z.string() }),
      handler: ({ body, principal }) => copyAnswer(deps, principal, { chatId: body.chat_id, messageUuid: body.message_uuid, targetChatId: body.target_chat_id }),
    }),
    route({
      ...user,
      method: 'POST',
      path: '/api/save_message_order',
      operationId: 'save_message_order',
      summary: 'Moves a message (or, in block mode, a question with its answer) up or down',
      body: z.object({ chat_id: ChatId, message_uuid: MessageUuid, direction: z.enum(['up', 'down']), block_mode: z.boolean().default(false) }),
      response: z.object({ moved: z.boolean() }),
      handler: ({ body, principal }) =>
        saveMessageOrder(deps, principal, { chatId: body.chat_id, messageUuid: body.message_uuid, direction: body.direction, blockMode: body.block_mode }),
    }),
    route({
      ...user,
      method: 'POST',
      path: '/api/feedback',
      operationId: 'feedback',
      summary: 'Records feedback on a message of one of the caller\'s chats',
      body: z
        .object({ chat_id: ChatId, message_uuid: MessageUuid, rating: z.enum(['positive', 'negative']).optional(), comment: z.string().max(5000).optional() })
        .refine((b) => b.rating !== undefined || (b.comment ?? '').trim() !== '', { message: 'Give a rating or a comment', path: ['rating'] }),
      response: z.object({ feedback_id: z.string() }),
      handler: ({ body, principal }) =>
        recordFeedback(deps, principal, {
          chatId: body.chat_id,
          messageUuid: body.message_uuid,
          ...(body.rating ? { rating: body.rating } : {}),
          ...(body.comment ? { comment: body.comment } : {}),
        }),
    }),
  ];
}
