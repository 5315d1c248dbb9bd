// The CLI data catalog and metadata sync.
import { z } from 'zod';
import { getCatalog } from '../../data/catalog/get-catalog.ts';
import { syncConnection } from '../../data/sync/sync-connection.ts';
import { CatalogResponse } from '../../compose/catalog-response.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { PRODUCTION_REFUSAL } from './knowledge.ts';

/** Catalog and sync routes. */
export function dataCatalogRoutes(s: Services) {
  return [
    route({
      method: 'GET',
      path: '/api/cli/catalog',
      operationId: 'cli_catalog',
      summary: 'Organization data catalog: capabilities, connections, top 50 tables by usage with their columns and governed metrics (no model calls)',
      description: '`limit` asks for more tables than the 50 (the SQL editor completes every table the caller may read, up to 1000).',
      tags: ['cli'],
      auth: 'user',
      query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(50).describe('How many tables, the most used first (default 50)') }),
      response: CatalogResponse,
      handler: ({ principal, environmentId, query }) => getCatalog(s.data, principal, environmentId, query.limit),
    }),
    route({
      method: 'POST',
      path: '/api/sync/{connection_type}/{connection_id}',
      operationId: 'sync_connection',
      errors: PRODUCTION_REFUSAL,
      summary: 'Introspects a connection into table documentation, keeping what people wrote; production needs an admin, an environment a modeler',
      tags: ['connections'],
      auth: 'user',
      role: 'modeler',
      queryCredential: 'api_token',
      params: z.object({ connection_type: z.string().min(1).max(40), connection_id: z.string().min(1).max(100) }),
      query: z.object({ user_id: z.string().optional() }),
      body: z.object({ schemas: z.array(z.string().min(1).max(255)).max(100).optional() }).optional(),
      response: z.object({
        connection_id: z.string(),
        schemas: z.array(z.string()),
        tables: z.number(),
        columns: z.number(),
        flagged_views: z
          .array(z.object({ view: z.string(), reads: z.string() }))
          .describe('Views (and partitions) that read a table with row filters and have none of their own: refused to users whose filter applies until an admin adds one'),
        added: z.array(z.string()).describe('`schema.name` of the tables documented for the first time'),
        updated: z.array(z.string()).describe('`schema.name` of documented tables whose columns (names or types) changed'),
        kept: z.array(z.string()).describe('`schema.name` of documented tables the warehouse shows as they were'),
      }),
      handler: ({ principal, environmentId, params, body }) =>
        syncConnection(s.data, principal, environmentId, {
          connectionType: params.connection_type,
          connectionId: params.connection_id,
          ...(body?.schemas ? { schemas: body.schemas } : {}),
        }),
    }),
  ];
}
