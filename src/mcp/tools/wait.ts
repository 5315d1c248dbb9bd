import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from './context.ts';
import { safely, structured } from './tool-result.ts';

export const MAX_WAIT_SECONDS = 30;

/** `wait`: pauses a bounded time, returning early when the given chat is done. */
export function registerWaitTool(server: McpServer, c: McpContext): void {
  server.registerTool(
    'wait',
    {
      title: 'Wait',
      description: `Waits up to the given number of seconds (1 to ${MAX_WAIT_SECONDS}) before you poll again. With chat_id it returns as soon as that chat's answer is ready (a chat_id that is wrong or someone else's answers not_found at once). Use it between get_result calls instead of polling in a tight loop.`,
      inputSchema: {
        seconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).describe('How long to wait at most.'),
        chat_id: z.string().min(1).max(200).optional().describe('Return early when this chat is no longer processing.'),
      },
      outputSchema: { waited_seconds: z.number().optional(), ready: z.boolean().optional(), status: z.literal('not_found').optional(), chat_id: z.string().optional(), message: z.string().optional() },
      annotations: { title: 'Wait', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ seconds, chat_id }, ctx) =>
      safely(c.log, 'wait', async () => {
        // Time is counted in slept steps (not the wall clock), so an injected sleep is exact.
        const limit = seconds * 1000;
        // Without a chat_id there is nothing to be ready: the wait runs its full time.
        const status = async () => (chat_id ? (await c.ports.getResult(c.principal, chat_id)).status : 'running');
        const first = await status();
        // A chat that is not the caller's (or none) is never ready: said at once, as get_result says it.
        if (first === 'not_found') return { ...structured({ status: 'not_found', chat_id, message: 'Chat not found.' }), isError: true };
        let waited = 0;
        let ready = first !== 'running';
        while (!ready && waited < limit && !ctx.mcpReq.signal.aborted) {
          const step = Math.min(1000, limit - waited);
          await c.sleep(step, ctx.mcpReq.signal);
          waited += step;
          ready = (await status()) !== 'running';
        }
        return structured(chat_id ? { waited_seconds: waited / 1000, ready } : { waited_seconds: waited / 1000 });
      }),
  );
}
