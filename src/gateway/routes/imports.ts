// Import of external assets (interface part 5: one of the three operations that take `api_token` and
// `user_id` in the query string): dbt artifacts into an environment.
import { rm } from 'node:fs/promises';
import type { Context } from 'koa';
import { z } from 'zod';
import { ValidationFailed } from '../../errors.ts';
import { importDbt, listDbtImports, type ArtifactSource } from '../../imports/dbt/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Counts = z.object({ created: z.number(), updated: z.number(), unchanged: z.number(), deleted: z.number() });
const Summary = z.object({
  environment_id: z.string(),
  environment_created: z.boolean().describe('True when the import made the environment (named after the project and the generation time)'),
  project: z.string(),
  generated_at: z.string().describe("The manifest's generation time, recorded on every item"),
  connection_id: z.string(),
  commit: z.string().nullable().describe('The one commit written; null when nothing changed'),
  counts: z.object({ tables: Counts, relationships: Counts, reports: Counts }),
  metrics: z.number().describe('Governed metrics placed on table documentation'),
  skipped: z.array(z.object({ unique_id: z.string(), reason: z.string() })).describe('Nodes, tests and metrics not imported, each with its reason'),
  conflicts: z.array(z.object({ path: z.string(), unique_id: z.string(), reason: z.string() })).describe('Files a person edited after an import: left as they are'),
});

const Body = z.object({
  connection_id: z.string().min(1).max(100).describe('The connection whose relations the nodes are matched to'),
  environment_id: z.string().min(1).max(100).optional().describe('Import into this environment; without it a new one is made'),
  manifest: z.unknown().optional().describe("dbt's manifest.json (schema v10 to v12): a file part, or the JSON value"),
  catalog: z.unknown().optional().describe("dbt's catalog.json (optional): a file part, or the JSON value"),
});

/** A file part or a JSON value of the body, as the import reads it. */
function artifact(ctx: Context, body: z.output<typeof Body>, field: 'manifest' | 'catalog'): ArtifactSource | undefined {
  const part = ctx.request.files?.[field];
  const file = Array.isArray(part) ? part[0] : part;
  if (file) return { path: file.filepath };
  const value = body[field];
  return value === undefined || value === '' ? undefined : { value };
}

/** The dbt import routes. */
export function importRoutes(s: Services) {
  return [
    route({
      method: 'POST',
      path: '/api/import/dbt',
      operationId: 'import_dbt',
      summary: "Imports a dbt project's manifest (and catalog) into an environment as table documentation, relationships, governed metrics and reports, in one commit",
      description:
        'Multipart (files `manifest` and `catalog`) or JSON with the same names. Without `environment_id` an environment is created. Re-importing the same artifacts changes nothing; files a person edited after an import are reported as conflicts; files whose dbt node is gone are deleted on the environment. Also accepts `api_token` and `user_id` in the query string, for CI jobs. A file part is read as a stream, keeping only the sections and fields the import reads, so large manifests (tens of MB, thousands of nodes) stay within a bounded memory; a JSON body is parsed whole, so send large manifests as file parts. Either way the request is bounded by the upload limit (SEXTANT_UPLOAD_LIMIT, 50 MB by default): 413 beyond it.',
      tags: ['import'],
      auth: 'user',
      role: 'modeler',
      queryCredential: 'api_token',
      query: z.object({ user_id: z.string().optional().describe("With api_token: the token's user") }),
      bodyType: 'json_or_multipart',
      bodyLimit: 'upload',
      body: Body,
      response: Summary,
      handler: async ({ principal, body, ctx }) => {
        const files = Object.values(ctx.request.files ?? {}).flat();
        try {
          const manifest = artifact(ctx, body, 'manifest');
          if (!manifest) throw new ValidationFailed([{ loc: ['body', 'manifest'], msg: 'Field required', type: 'missing' }]);
          const catalog = artifact(ctx, body, 'catalog');
          return await importDbt(s.imports, principal, { manifest, connectionId: body.connection_id, ...(catalog ? { catalog } : {}), ...(body.environment_id ? { environmentId: body.environment_id } : {}) });
        } finally {
          await Promise.all(files.map((f) => rm(f.filepath, { force: true })));
        }
      },
    }),
    route({
      method: 'GET',
      path: '/api/import/dbt',
      operationId: 'list_dbt_imports',
      summary: 'The summaries of the dbt imports into an environment, newest first',
      tags: ['import'],
      auth: 'user',
      role: 'modeler',
      query: z.object({ environment_id: z.string().min(1).max(100) }),
      response: z.object({ imports: z.array(z.object({ id: z.string(), created_at: z.string(), created_by: z.string().nullable(), summary: Summary })) }),
      handler: ({ principal, query }) => listDbtImports(s.imports, principal, query.environment_id),
    }),
  ];
}
