// Sharing routes: share a chat or one message, remove a share, and the public shared view.
import { z } from 'zod';
import { ChatPage, deleteSharedChat, listShares, loadSharedChat, shareChat, shareMessage } from '../../chats/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { ChatId, MessageUuid } from './chats.ts';

const ShareRef = z.object({
  chat_id: z.string().describe('The share\'s own random id (128 bits, never the chat\'s id), new on every share: GET /api/share/{chat_id}'),
  shared_at: z.number().int(),
  url: z.string().describe('The public view as JSON'),
  page_url: z.string().describe('The public view as a page of the web client'),
});
const OwnShare = ShareRef.extend({ message_uuid: z.string().nullable().describe('The shared message; null when the whole chat is shared') });

/** Routes that create, remove and show public shares. */
export function chatSharingRoutes(s: Services) {
  const deps = s.chats;
  const withUrl = <R extends { chat_id: string }>(ref: R) => {
    const id = encodeURIComponent(ref.chat_id);
    return { ...ref, url: `${s.config.baseUrl}/api/share/${id}`, page_url: `${s.config.baseUrl}/share/${id}` };
  };
  return [
    route({
      method: 'POST',
      path: '/api/share_chat',
      operationId: 'share_chat',
      summary: 'Shares one of the caller\'s chats publicly (read-only, displayed messages only) under a new random id; an earlier link to the whole chat stops working',
      tags: ['chats'],
      auth: 'user',
      body: z.object({ chat_id: ChatId }),
      response: ShareRef,
      handler: async ({ body, principal }) => withUrl(await shareChat(deps, principal, { chatId: body.chat_id })),
    }),
    route({
      method: 'POST',
      path: '/api/share_message',
      operationId: 'share_message',
      summary: 'Creates a shared chat holding one message and the question it answers, under a new random id',
      tags: ['chats'],
      auth: 'user',
      body: z.object({ chat_id: ChatId, message_uuid: MessageUuid }),
      response: ShareRef,
      handler: async ({ body, principal }) => withUrl(await shareMessage(deps, principal, { chatId: body.chat_id, messageUuid: body.message_uuid })),
    }),
    route({
      method: 'GET',
      path: '/api/shared_chats',
      operationId: 'list_shared_chats',
      summary: 'The shares of one of the caller\'s chats (the whole chat and single messages), newest first',
      tags: ['chats'],
      auth: 'user',
      query: z.object({ chat_id: ChatId }),
      response: z.object({ shares: z.array(OwnShare) }),
      handler: async ({ query, principal }) => ({ shares: (await listShares(deps, principal, { chatId: query.chat_id })).map(withUrl) }),
    }),
    route({
      method: 'POST',
      path: '/api/delete_shared_chat',
      operationId: 'delete_shared_chat',
      summary: 'Removes a share the caller made (chat_id is the share\'s id); its link answers 404 from then on',
      tags: ['chats'],
      auth: 'user',
      body: z.object({ chat_id: ChatId }),
      response: z.object({ status: z.literal('ok') }),
      handler: async ({ body, principal }) => {
        await deleteSharedChat(deps, principal, { chatId: body.chat_id });
        return { status: 'ok' as const };
      },
    }),
    route({
      method: 'GET',
      path: '/api/share/{chat_id}',
      operationId: 'load_shared_chat',
      summary: 'Public view of a shared chat by the share\'s id (not the chat\'s), displayed messages only, without credits, in pair pages',
      tags: ['chats'],
      auth: 'none',
      params: z.object({ chat_id: ChatId }),
      query: z.object({ pairs: z.coerce.number().int().min(1).max(50).optional(), offset: z.coerce.number().int().min(0).default(0) }),
      response: ChatPage,
      handler: ({ params, query, ctx }) => {
        ctx.set('Cache-Control', 'no-store');
        return loadSharedChat(deps, params.chat_id, { offset: query.offset, ...(query.pairs === undefined ? {} : { pairs: query.pairs }) });
      },
    }),
  ];
}
