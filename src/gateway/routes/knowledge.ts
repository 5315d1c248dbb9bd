// Knowledge items per kind, their history and reverts, and the git mirror settings. Every request is
// scoped by X-Service-Environment (absent: production); regular users always read production.
import { z } from 'zod';
import {
  createItem,
  deleteItem,
  deleteMirror,
  getItem,
  getMirror,
  itemHistory,
  KINDS,
  listItems,
  MAX_ID_LENGTH,
  modelHistory,
  productionSettings,
  revertItem,
  revertModel,
  schemas,
  setMirror,
  updateItem,
} from '../../knowledge/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Kind = z.enum(KINDS).describe('Kind of knowledge: tables, notes, relationships, reports, skills or evaluations');
const ItemParams = z.object({
  kind: Kind,
  id: z.string().min(1).max(MAX_ID_LENGTH).describe('Item id; for tables `<connection>/<schema>.<table>` (URL-encode the slash)'),
});
const ItemBody = z.record(z.string(), z.unknown()).describe("The item's fields, as in its YAML file");
const CommitBody = z.object({ commit: z.string().regex(/^[0-9a-f]{40}$/, 'a 40-character commit id') });
const ListQuery = z.object({
  cursor: z.string().max(4000).optional().describe("The previous page's next_cursor"),
  limit: z.coerce.number().int().min(1).max(1000).optional().describe('Items per page, 1 to 1000; without it, every item from the cursor on'),
  q: z.string().max(200).optional().describe("Search: only items whose id or title (or name) holds each of these words, ignoring case"),
  row_filters: z.enum(['true', 'false']).optional().transform((v) => v === 'true').describe('true: only tables whose documentation has row filters'),
});
const Limit = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
const Commit = z.object({ commit: z.string(), message: z.string(), author: z.object({ name: z.string(), email: z.string() }), date: z.string(), parents: z.array(z.string()) });
const Item = z.object({
  kind: Kind,
  id: z.string(),
  path: z.string(),
  data: z.union([schemas.TableFile, z.record(z.string(), z.unknown())]).nullable().describe('The parsed file; table documentation as TableDocumentation'),
  yaml: z.string(),
  version: z.string().describe("The item's version (its file's blob id), also its ETag; send it in If-Match to save only over it"),
  error: z.string().optional(),
});
const ItemAt = Item.extend({ commit: z.string() });
const versionOf = (item: { version: string }) => item.version;
const MirrorBody = z.object({
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'http(s) URL of the remote repository')
    .refine((u) => !/^https?:\/\/[^/?#]*@/.test(u), 'Put credentials in username and token, not in the URL (they would be stored and shown in plain text)'),
  username: z.string().max(200).optional(),
  token: z.string().max(2000).optional().describe('Password or token; omit to keep the stored one, empty to clear it'),
  main_branch: z.string().regex(/^[\w./-]{1,100}$/, 'A branch name: letters, digits and _ . / -, at most 100 characters').optional(),
  api_base_url: z.string().url().nullable().optional().describe('GitHub API base URL; GitHub Enterprise: https://<host>/api/v3'),
  repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'owner/name, as GitHub names a repository').nullable().optional().describe('owner/name for pull requests; derived from the URL when absent'),
});

/** What a write to production answers while the organization changes it only through environments. */
export const PRODUCTION_REFUSAL = {
  403: 'Without X-Service-Environment (production) while the organization setting "Changes to production only through environments" is on: `code` PRODUCTION_THROUGH_ENVIRONMENTS; make the change in an environment and merge it',
} as const;

/** Routes under /api/knowledge. Static paths come before `{kind}` ones, which would match them too. */
export function knowledgeRoutes(s: Services) {
  const k = s.knowledge;
  return [
    route({
      method: 'GET', path: '/api/knowledge/settings', operationId: 'get_knowledge_settings', tags: ['knowledge'], auth: 'user', role: 'modeler',
      summary: 'Whether production changes only through environments (the organization setting admins change in /api/admin/organization/settings)',
      response: z.object({ production_through_environments: z.boolean() }), handler: ({ principal }) => productionSettings(k, principal),
    }),
    route({ method: 'GET', path: '/api/knowledge/mirror', operationId: 'get_knowledge_mirror', summary: 'Git mirror settings (no credential)', tags: ['knowledge'], auth: 'user', role: 'admin', handler: ({ principal }) => getMirror(k, principal) }),
    route({ method: 'PUT', path: '/api/knowledge/mirror', operationId: 'set_knowledge_mirror', summary: 'Mirror knowledge to a git remote (credential sealed at rest)', tags: ['knowledge'], auth: 'user', role: 'admin', body: MirrorBody, handler: ({ principal, body }) => setMirror(k, principal, body) }),
    route({ method: 'DELETE', path: '/api/knowledge/mirror', operationId: 'delete_knowledge_mirror', summary: 'Turn mirroring off', tags: ['knowledge'], auth: 'user', role: 'admin', handler: ({ principal }) => deleteMirror(k, principal) }),
    route({
      method: 'GET', path: '/api/knowledge/model/history', operationId: 'knowledge_history', summary: 'Commits of the whole knowledge model', tags: ['knowledge'], auth: 'user',
      query: Limit, response: z.object({ commits: z.array(Commit) }),
      handler: ({ principal, environmentId, query }) => modelHistory(k, principal, environmentId, query.limit),
    }),
    route({
      method: 'POST', path: '/api/knowledge/model/revert', operationId: 'revert_knowledge', errors: PRODUCTION_REFUSAL, summary: 'Restore the whole model to a commit (as a new commit)', tags: ['knowledge'], auth: 'user', role: 'modeler',
      body: CommitBody, handler: ({ principal, environmentId, body }) => revertModel(k, principal, environmentId, body.commit),
    }),
    route({
      method: 'GET', path: '/api/knowledge/{kind}', operationId: 'list_knowledge_items', summary: 'Items of a kind in path order and the commit they were read at; searched with `q`, keyset pages with `limit` (every item without it), `total` counting every page', tags: ['knowledge'], auth: 'user',
      params: z.object({ kind: Kind }), query: ListQuery,
      response: z.object({ commit: z.string().nullable(), items: z.array(Item), next_cursor: z.string().nullable().describe('Opaque; pass as cursor for the next page, null at the end'), total: z.number().int().describe('Items on every page together (after q and row_filters)') }),
      handler: ({ principal, environmentId, params, query }) => listItems(k, principal, environmentId, params.kind, { cursor: query.cursor, limit: query.limit, q: query.q, rowFilters: query.row_filters }),
    }),
    route({
      method: 'POST', path: '/api/knowledge/{kind}', operationId: 'create_knowledge_item', errors: PRODUCTION_REFUSAL, summary: 'Create an item (one commit)', tags: ['knowledge'], auth: 'user', role: 'modeler', status: 201,
      params: z.object({ kind: Kind }), query: z.object({ id: z.string().min(1).max(MAX_ID_LENGTH).optional().describe('File id for notes and reports (default: from the title)') }), body: ItemBody,
      response: ItemAt, etag: versionOf,
      handler: ({ principal, environmentId, params, query, body }) => createItem(k, principal, environmentId, params.kind, body, query.id),
    }),
    route({
      method: 'GET', path: '/api/knowledge/{kind}/{id}', operationId: 'get_knowledge_item', summary: 'One item (its version in ETag)', tags: ['knowledge'], auth: 'user', params: ItemParams,
      response: ItemAt, etag: versionOf,
      handler: ({ principal, environmentId, params }) => getItem(k, principal, environmentId, params.kind, params.id),
    }),
    route({
      method: 'PUT', path: '/api/knowledge/{kind}/{id}', operationId: 'update_knowledge_item', errors: PRODUCTION_REFUSAL, summary: 'Replace an item, keeping comments and key order in its file', tags: ['knowledge'], auth: 'user', role: 'modeler',
      params: ItemParams, body: ItemBody, response: ItemAt, etag: versionOf, conditional: true,
      handler: ({ principal, environmentId, params, body, ifMatch }) => updateItem(k, principal, environmentId, params.kind, params.id, body, ifMatch),
    }),
    route({
      method: 'DELETE', path: '/api/knowledge/{kind}/{id}', operationId: 'delete_knowledge_item', errors: PRODUCTION_REFUSAL, summary: 'Delete an item (one commit)', tags: ['knowledge'], auth: 'user', role: 'modeler',
      params: ItemParams, conditional: true, handler: ({ principal, environmentId, params, ifMatch }) => deleteItem(k, principal, environmentId, params.kind, params.id, ifMatch),
    }),
    route({
      method: 'GET', path: '/api/knowledge/{kind}/{id}/history', operationId: 'knowledge_item_history', summary: 'Commits that changed an item', tags: ['knowledge'], auth: 'user',
      params: ItemParams, query: Limit, handler: ({ principal, environmentId, params, query }) => itemHistory(k, principal, environmentId, params.kind, params.id, query.limit),
    }),
    route({
      method: 'POST', path: '/api/knowledge/{kind}/{id}/revert', operationId: 'revert_knowledge_item', errors: PRODUCTION_REFUSAL, summary: 'Restore an item to a commit (as a new commit)', tags: ['knowledge'], auth: 'user', role: 'modeler',
      params: ItemParams, body: CommitBody, handler: ({ principal, environmentId, params, body }) => revertItem(k, principal, environmentId, params.kind, params.id, body.commit),
    }),
  ];
}
