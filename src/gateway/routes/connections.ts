// Warehouse connections (admin): create, list, get, update, delete, test. Passwords go in, never out.
import { z } from 'zod';
import { createConnection, deleteConnection, getConnection, listConnections, testConnection, updateConnection } from '../../data/connections/index.ts';
import { CONNECTION_TYPES } from '../../data/drivers/registry.ts';
import { connectionDependants } from '../../compose/connection-dependants.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Settings = z
  .object({
    host: z.string().min(1).max(255).optional(),
    port: z.number().int().min(1).max(65535).optional(),
    database: z.string().min(1).max(255).optional(),
    user: z.string().min(1).max(255).optional(),
    path: z.string().min(1).max(1024).optional().describe("DuckDB and SQLite: the file, relative to the organization's folder under a warehouse root (`<root>/<org_id>/`)"),
    schema: z.string().min(1).max(255).optional(),
    ssl: z.boolean().optional(),
    statementTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
  })
  .strict();

const Connection = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(CONNECTION_TYPES),
  settings: Settings,
  has_password: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});

const Id = z.object({ connection_id: z.string().min(1).max(100) });
// Only the connection's own deps: the test opens its driver as it always has, outside the query
// processes and without the query timeout (a question for the data plane, not for this move).
const connectionDeps = ({ data: { store, clock, secretBox, fileRoots, checkHost } }: Services) => ({ store, clock, secretBox, fileRoots, checkHost });

/** Connection management; every route is scoped to the caller's organization. */
export function connectionRoutes(s: Services) {
  return [
    route({
      method: 'GET',
      path: '/api/connections',
      operationId: 'list_connections',
      summary: 'Lists the organization\'s warehouse connections (no credentials)',
      tags: ['connections'],
      auth: 'user',
      role: 'admin',
      response: z.object({ connections: z.array(Connection) }),
      handler: async ({ principal }) => ({ connections: await listConnections(s.data, principal.orgId) }),
    }),
    route({
      method: 'POST',
      path: '/api/connections',
      operationId: 'create_connection',
      summary: 'Creates a warehouse connection; the password is encrypted at rest and never returned',
      tags: ['connections'],
      auth: 'user',
      role: 'admin',
      body: z.object({
        id: z.string().regex(/^[a-z0-9_][a-z0-9_-]{0,63}$/, 'Lower-case letters, digits, _ and - (not first), at most 64 characters').optional(),
        name: z.string().min(1).max(200),
        type: z.enum(CONNECTION_TYPES),
        settings: Settings.default({}),
        password: z.string().max(1000).optional(),
      }),
      status: 201,
      response: Connection,
      handler: ({ principal, body }) => createConnection(s.data, principal.orgId, principal.userId, body),
    }),
    route({
      method: 'GET',
      path: '/api/connections/{connection_id}',
      operationId: 'get_connection',
      summary: 'One connection (no credentials)',
      tags: ['connections'],
      auth: 'user',
      role: 'admin',
      params: Id,
      response: Connection,
      handler: ({ principal, params }) => getConnection(s.data, principal.orgId, params.connection_id),
    }),
    route({
      method: 'PATCH',
      path: '/api/connections/{connection_id}',
      operationId: 'update_connection',
      summary: 'Changes name, settings or password (null removes the password, absent keeps it)',
      tags: ['connections'],
      auth: 'user',
      role: 'admin',
      params: Id,
      body: z.object({ name: z.string().min(1).max(200).optional(), settings: Settings.optional(), password: z.string().max(1000).nullable().optional() }),
      response: Connection,
      handler: ({ principal, params, body }) => updateConnection(s.data, principal.orgId, params.connection_id, body),
    }),
    route({
      method: 'DELETE',
      path: '/api/connections/{connection_id}',
      operationId: 'delete_connection',
      summary: 'Deletes a connection',
      tags: ['connections'],
      auth: 'user',
      role: 'admin',
      params: Id,
      response: z.object({ deleted: z.literal(true) }),
      handler: async ({ principal, params }) => {
        await deleteConnection(s.data, principal.orgId, params.connection_id);
        return { deleted: true as const };
      },
    }),
    route({
      method: 'GET',
      path: '/api/connections/{connection_id}/dependants',
      operationId: 'list_connection_dependants',
      summary: 'What names the connection: documented tables in production, their row filters, saved reports, and saved questions (shown before a delete)',
      tags: ['connections'],
      auth: 'user',
      role: 'admin',
      params: Id,
      response: z.object({
        connection_id: z.string(),
        tables: z.array(z.object({ schema: z.string(), name: z.string(), row_filters: z.number().int() })),
        reports: z.array(z.object({ id: z.string(), title: z.string() })),
        row_filters: z.number().int(),
        saved_questions: z.array(z.object({ id: z.string(), title: z.string() })).describe("The organization's saved questions on the connection (their dashboard tiles and subscriptions fail while it is gone)"),
        private_saved_questions: z.number().int().describe("Members' private saved questions on it: counted, not named"),
      }),
      handler: ({ principal, params }) => connectionDependants(s, principal, params.connection_id),
    }),
    route({
      method: 'POST',
      path: '/api/connections/{connection_id}/test',
      operationId: 'test_connection',
      summary: 'Connects, pings and counts tables; answers ok false with the error when it fails',
      tags: ['connections'],
      auth: 'user',
      role: 'admin',
      params: Id,
      response: z.object({
        ok: z.boolean(),
        table_count: z.number().optional(),
        error: z.string().optional(),
        code: z.string().optional().describe('The failure\'s error code: WAREHOUSE_UNAVAILABLE, WAREHOUSE_PATH_REFUSED, CONNECTION_HOST_UNRESOLVED...'),
        reason: z
          .string()
          .optional()
          .describe('Why, when known: for WAREHOUSE_UNAVAILABLE one of wrong_credentials, unknown_database, unreachable, timed_out, tls, other; for WAREHOUSE_PATH_REFUSED the path refusal'),
        duration_ms: z.number(),
      }),
      handler: ({ principal, params }) => testConnection(connectionDeps(s), principal.orgId, params.connection_id),
    }),
  ];
}
