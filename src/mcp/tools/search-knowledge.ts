import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from './context.ts';
import { safely, structured } from './tool-result.ts';

/** `search_knowledge`: finds documented tables, notes, relationships, reports and skills. */
export function registerSearchKnowledgeTool(server: McpServer, c: McpContext): void {
  server.registerTool(
    'search_knowledge',
    {
      title: 'Search knowledge',
      description:
        "Searches the organization's documented knowledge (table and column descriptions, business notes, relationships, saved reports, skills) by keywords. Use it to learn definitions and which tables hold what before asking or querying.",
      inputSchema: {
        query: z.string().min(2).max(500).describe('Keywords or a short phrase.'),
        limit: z.number().int().min(1).max(50).default(10).describe('Maximum hits (default 10).'),
      },
      outputSchema: { hits: z.array(z.object({ kind: z.string(), id: z.string(), title: z.string(), snippet: z.string() })) },
      annotations: { title: 'Search knowledge', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ query, limit }) => safely(c.log, 'search_knowledge', async () => structured({ hits: await c.ports.searchKnowledge(c.principal, { query, limit }) })),
  );
}
