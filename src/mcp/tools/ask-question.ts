import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from './context.ts';
import { safely, structured } from './tool-result.ts';

/** `ask_question`: starts an agent run and returns its chat id at once. */
export function registerAskQuestionTool(server: McpServer, c: McpContext): void {
  server.registerTool(
    'ask_question',
    {
      title: 'Ask a data question',
      description:
        "Asks Sextant's data analyst agent a question in natural language (for example 'monthly revenue by country in 2025'). Returns a chat_id immediately; the answer takes from a few seconds to a few minutes. Then call get_result with that chat_id (use wait between polls). Pass chat_id to ask a follow-up in the same conversation.",
      inputSchema: {
        question: z.string().min(1).max(10_000).describe('The question, in plain language.'),
        chat_id: z.string().min(1).max(200).optional().describe('Continue this earlier conversation instead of starting a new one.'),
      },
      outputSchema: { chat_id: z.string(), status: z.literal('running'), next: z.string() },
      // It records a chat (not read-only) and only adds to it (not destructive); asking twice asks twice.
      annotations: { title: 'Ask a data question', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ question, chat_id }) =>
      safely(c.log, 'ask_question', async () => {
        const { chatId } = await c.ports.askQuestion(c.principal, chat_id ? { question, chatId: chat_id } : { question });
        return structured({ chat_id: chatId, status: 'running', next: 'Call get_result with this chat_id; if it is still processing, call wait and try again.' });
      }),
  );
}
