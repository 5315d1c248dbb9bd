// Environments (interface part 4): each one a branch of the organization's knowledge. Admins and
// modelers only, except opening a pull request, which anyone may do when mirroring is on.
import { z } from 'zod';
import {
  createEnvironment,
  deleteEnvironment,
  environmentConflicts,
  environmentDiff,
  getEnvironment,
  keepEnvironment,
  listEnvironments,
  openPullRequest,
  setTargets,
  startQuickFixEnvironment,
  syncEnvironmentTargets,
  updateFromProduction,
} from '../../knowledge/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

/**
 * An environment's name: one line people read in the coloured bar. No control or invisible formatting
 * characters (a direction override can make one name read as another), and not one that passes for
 * production. Look-alike letters (fullwidth, ligatures) are folded by the domain (NFKC) before the
 * name is compared with the others.
 */
const EnvironmentName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((n) => !/[\p{Cc}\p{Cf}]/u.test(n), 'A name cannot contain control or invisible formatting characters (line breaks, tabs, direction overrides)')
  .refine((n) => n.normalize('NFKC').toLowerCase() !== 'production', '"production" is the organization\'s published knowledge: pick another name');
const Color = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a hex colour such as #1e88e5');
const Id = z.object({ id: z.string().min(1).max(64) });
const Target = z.object({
  schema: z.string().min(1).max(200).optional(),
  database: z.string().min(1).max(200).optional(),
  project: z.string().min(1).max(200).optional(),
  dataset: z.string().min(1).max(200).optional(),
});
const Environment = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  source_env_id: z.string().nullable(),
  throwaway: z.boolean(),
  git_branch: z.string().nullable(),
  targets: z.record(z.string(), Target),
  created_by: z.string().nullable(),
  created_at: z.string(),
  last_activity_at: z.string(),
  expires_at: z.string().nullable(),
});
const Hunk = z.object({ old_start: z.number(), old_lines: z.number(), new_start: z.number(), new_lines: z.number(), lines: z.array(z.string()).describe('Each line prefixed by +, - or a space (context)') });
const FileDiff = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  hunks: z.array(Hunk).optional().describe('With lines=true: the changed lines, 3 lines of context'),
  lines_omitted: z.boolean().optional().describe('With lines=true: the file is too large to show its lines'),
});

const FieldConflict = z.object({
  name: z.string(),
  base: z.unknown().describe('The field where the environment forked or last took production\'s changes (null: absent)'),
  environment: z.unknown(),
  production: z.unknown(),
  conflict: z.boolean().describe('Both sides changed the field differently: a person decides'),
  merged: z.unknown().optional().describe('When no conflict: the field merged (absent: the field is removed)'),
});
const ConflictFile = z.object({
  path: z.string(),
  base: z.string().nullable(),
  environment: z.string().nullable(),
  production: z.string().nullable(),
  fields: z.array(FieldConflict).optional().describe('For knowledge items: the fields that differ between the environment and production'),
});
const Resolution = z.object({
  path: z.string().min(1).max(1000),
  keep: z.enum(['environment', 'production', 'merged']),
  content: z.string().max(1_000_000).nullable().optional().describe("With keep=merged: the file's text (null deletes it)"),
  value: z.record(z.string(), z.unknown()).optional().describe("With keep=merged, for a knowledge item: its fields, written over the environment's file keeping its comments"),
});
const CONFLICTS_409 = 'MERGE_CONFLICTS: files conflict with production and are not resolved (`data.conflicts`)';

/** Routes under /api/environments. */
export function environmentRoutes(s: Services) {
  const k = s.knowledge;
  return [
    route({ method: 'GET', path: '/api/environments', operationId: 'list_environments', summary: 'List environments', tags: ['environments'], auth: 'user', role: 'modeler', response: z.array(Environment), handler: ({ principal }) => listEnvironments(k, principal) }),
    route({
      method: 'POST', path: '/api/environments', operationId: 'create_environment', summary: 'Create an environment forked from production or source_env_id', tags: ['environments'], auth: 'user', role: 'modeler', status: 201,
      body: z.object({ name: EnvironmentName, color: Color, source_env_id: z.string().max(64).nullable().optional() }), response: Environment,
      errors: { 409: 'ENVIRONMENT_NAME_TAKEN: the organization has an environment of this name, ignoring case (`data.name`)' },
      handler: ({ principal, body }) => createEnvironment(k, principal, body),
    }),
    route({
      method: 'POST', path: '/api/environments/quick_fix', operationId: 'start_quick_fix_environment', summary: 'Start a throwaway environment from production for a quick-fix session', tags: ['environments'], auth: 'user', role: 'modeler', status: 201,
      body: z.object({ name: EnvironmentName.optional(), color: Color.optional() }).default({}), response: Environment,
      handler: ({ principal, body }) => startQuickFixEnvironment(k, principal, body),
    }),
    route({ method: 'GET', path: '/api/environments/{id}', operationId: 'get_environment', summary: 'One environment', tags: ['environments'], auth: 'user', role: 'modeler', params: Id, response: Environment, handler: ({ principal, params }) => getEnvironment(k, principal, params.id) }),
    route({
      method: 'DELETE', path: '/api/environments/{id}', operationId: 'delete_environment', summary: 'Delete an environment (confirm=true)', tags: ['environments'], auth: 'user', role: 'modeler',
      params: Id, query: z.object({ confirm: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')) }),
      handler: async ({ principal, params, query }) => {
        await deleteEnvironment(k, principal, params.id, query.confirm);
        return { deleted: true };
      },
    }),
    route({
      method: 'GET', path: '/api/environments/{id}/diff', operationId: 'environment_diff', summary: 'Files changed versus production (lines=true: with the changed lines)', tags: ['environments'], auth: 'user', role: 'modeler', params: Id,
      query: z.object({ lines: z.enum(['true', 'false']).default('false').transform((v) => v === 'true') }),
      response: z.object({ files: z.array(FileDiff) }), handler: ({ principal, params, query }) => environmentDiff(k, principal, params.id, { lines: query.lines }),
    }),
    route({
      method: 'GET', path: '/api/environments/{id}/conflicts', operationId: 'environment_conflicts', summary: 'Predict merge conflicts with production (writes nothing; details=true: each file\'s versions and fields)', tags: ['environments'], auth: 'user', role: 'modeler', params: Id,
      query: z.object({ details: z.enum(['true', 'false']).default('false').transform((v) => v === 'true') }),
      response: z.object({ mergeable: z.boolean(), merge: z.string(), conflicts: z.array(z.string()), files: z.array(ConflictFile).optional().describe('With details=true') }),
      handler: ({ principal, params, query }) => environmentConflicts(k, principal, params.id, { details: query.details }),
    }),
    route({
      method: 'POST', path: '/api/environments/{id}/update', operationId: 'update_environment_from_production', summary: "Bring production's changes into the environment (a merge commit), resolving conflicting files", tags: ['environments'], auth: 'user', role: 'modeler', params: Id,
      description:
        "Merges production into the environment's branch as one merge commit. Each file that conflicts needs a resolution: keep the environment's version, production's, or a merged version (`content`, or `value` for a knowledge item). " +
        'Resolutions may only name files that conflict (422). Afterwards the environment merges into production without conflict.',
      body: z.object({ resolutions: z.array(Resolution).max(1000).optional() }).default({}),
      response: z.object({ merge: z.enum(['up_to_date', 'fast_forward', 'merged']), commit: z.string().nullable() }),
      errors: { 404: 'ENVIRONMENT_NOT_FOUND', 409: CONFLICTS_409 },
      handler: ({ principal, params, body }) => updateFromProduction(k, principal, params.id, body),
    }),
    route({
      method: 'PUT', path: '/api/environments/{id}/targets', operationId: 'set_environment_targets', summary: 'Set warehouse target overrides per connection', tags: ['environments'], auth: 'user', role: 'modeler',
      params: Id, body: z.object({ targets: z.record(z.string().min(1).max(200), Target) }), response: Environment,
      handler: ({ principal, params, body }) => setTargets(k, principal, params.id, body.targets),
    }),
    route({
      method: 'POST', path: '/api/environments/{id}/sync_target', operationId: 'sync_environment_target', summary: 'Refresh table documentation from the dev targets', tags: ['environments'], auth: 'user', role: 'modeler', params: Id,
      handler: ({ principal, params }) => syncEnvironmentTargets(k, principal, params.id),
    }),
    route({
      method: 'POST', path: '/api/environments/{id}/merge', operationId: 'merge_environment', summary: 'Merge into production (confirm must be true; behind the evaluation gate when it is on)', tags: ['environments'], auth: 'user', role: 'modeler',
      params: Id,
      body: z.object({
        confirm: z.boolean().optional(),
        delete_after: z.boolean().optional(),
        override_evaluations: z.boolean().optional().describe('Admins: merge although the required evaluation gate refuses (recorded in the merge commit message)'),
      }),
      errors: { 404: 'ENVIRONMENT_NOT_FOUND', 409: `${CONFLICTS_409}: resolve them with POST /api/environments/{id}/update` },
      handler: ({ principal, params, body }) => s.mergeEnvironment(principal, params.id, body),
    }),
    route({
      method: 'POST', path: '/api/environments/{id}/keep', operationId: 'keep_environment', summary: 'Keep a throwaway environment (it becomes lasting)', tags: ['environments'], auth: 'user', role: 'modeler', params: Id, response: Environment,
      handler: ({ principal, params }) => keepEnvironment(k, principal, params.id),
    }),
    route({
      method: 'POST', path: '/api/environments/{id}/pull_request', operationId: 'open_environment_pull_request', summary: 'Open a pull request for the environment on the mirror (needs mirroring)', tags: ['environments'], auth: 'user',
      params: Id, body: z.object({ title: z.string().min(1).max(200).optional(), body: z.string().max(10_000).optional() }).default({}), status: 201,
      handler: ({ principal, params, body }) => openPullRequest(k, principal, params.id, body),
    }),
  ];
}
