import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpContext } from './context.ts';
import { safely, structured } from './tool-result.ts';

const Metric = z.object({
  name: z.string(),
  description: z.string(),
  synonyms: z.array(z.string()).optional(),
  expression: z.string().describe('Aggregate SQL over the table'),
  filter: z.string().optional().describe('Rows the metric counts'),
  time_column: z.string().optional().describe('The date periods apply to'),
  format: z.string().optional(),
});

const Output = {
  capabilities: z.array(z.string()),
  connections: z.array(z.object({ id: z.string(), type: z.string(), name: z.string() })),
  tables: z.array(
    z.object({
      connection: z.string(),
      schema: z.string(),
      name: z.string(),
      description: z.string(),
      columns: z.array(z.object({ name: z.string(), type: z.string().optional(), description: z.string().optional() })),
      metrics: z.array(Metric),
      coverage: z.object({ first: z.string(), last: z.string() }).optional(),
      query_count: z.number(),
    }),
  ),
};

/** `catalog`: what can be asked about, instantly and without a model call. */
export function registerCatalogTool(server: McpServer, c: McpContext): void {
  server.registerTool(
    'catalog',
    {
      title: 'Data catalog',
      description:
        "Lists the data connections and the documented tables (up to 50, the most used first) that the signed-in user can ask about, with their descriptions, columns and governed metrics (revenue and the like, defined once by the organization) and the dates their data covers. Instant and free: call it first to learn what questions Sextant can answer, then use ask_question.",
      inputSchema: {},
      outputSchema: Output,
      annotations: { title: 'Data catalog', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    () => safely(c.log, 'catalog', async () => ({ ...structured({ ...(await c.ports.catalog(c.principal)) }) })),
  );
}
