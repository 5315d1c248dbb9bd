import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from '../create-mcp-server.ts';
import { safely, structured } from './tool-result.ts';

const Output = {
  capabilities: z.array(z.string()),
  connections: z.array(z.object({ id: z.string(), type: z.string(), name: z.string() })),
  tables: z.array(z.object({ connection: z.string(), schema: z.string(), name: z.string(), description: z.string() })),
};

/** `catalog`: what can be asked about, instantly and without a model call. */
export function registerCatalogTool(server: McpServer, c: McpContext): void {
  server.registerTool(
    'catalog',
    {
      title: 'Data catalog',
      description:
        "Lists the data connections and the most used documented tables (up to 50) that the signed-in user can ask about, with short descriptions. Instant and free: call it first to learn what questions Sextant can answer, then use ask_question.",
      inputSchema: {},
      outputSchema: Output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => safely(c.log, 'catalog', async () => ({ ...structured({ ...(await c.ports.catalog(c.principal)) }) })),
  );
}
