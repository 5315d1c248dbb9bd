// The CLI catalog's answer: the data plane's tables and usage together with knowledge's metric and
// coverage shapes (one schema per shape), so the shape of the two domains together is declared here.
import { z } from 'zod';
import { schemas } from '../knowledge/index.ts';

export const CatalogResponse = z.object({
  org_id: z.string(),
  capabilities: z.object({ sql: z.boolean(), connection_types: z.array(z.string()), row_limit: z.number(), row_level_security: z.boolean(), environments: z.boolean() }),
  connections: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), dialect: z.string(), documented_tables: z.number() })),
  top_tables: z
    .array(
      z.object({
        connection_id: z.string(),
        table: z.string().describe('schema.table'),
        query_count: z.number().describe('Successful queries that read it'),
        description: z.string().optional(),
        columns: z.array(z.object({ name: z.string(), type: z.string().optional(), description: z.string().optional() })),
        metrics: z.array(schemas.Metric),
        coverage: schemas.DataCoverage.optional(),
      }),
    )
    .describe('Every active documented table, the most used first (at most `limit`, default 50); admins also see undocumented tables their queries read'),
});
