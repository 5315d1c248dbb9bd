// Workspace administration (issue 35): admins of a base organization create, rename and remove its
// workspaces and choose their members. Workspaces and people of other organizations answer 404; from
// a workspace these routes answer 403 BASE_ORG_REQUIRED.
import { z } from 'zod';
import { ROLES } from '../../auth/index.ts';
import * as workspaces from '../../auth/workspaces/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Name = z.string().trim().min(1).max(100);
const WorkspaceId = z.object({ workspace_id: z.string().min(1).max(100) });
const MemberParams = WorkspaceId.extend({ user_id: z.string().min(1).max(100) });
const Workspace = z.object({ workspace_id: z.string(), name: z.string(), member_count: z.number().int(), created_at: z.string().describe('ISO 8601') });
const WorkspaceMember = z.object({ user_id: z.string(), email: z.string(), name: z.string(), role: z.enum(ROLES) });
const Members = z.object({ members: z.array(WorkspaceMember) });
const NAME_TAKEN = { 409: 'Another workspace of the organization has that name, whatever its case (WORKSPACE_NAME_TAKEN)' } as const;

/** Routes under /api/admin/workspaces, for admins of a base organization. */
export function adminWorkspaceRoutes(s: Services) {
  const deps = { x: s.executor, clock: s.clock, facts: s.memberFacts };
  const tags = ['admin', 'workspaces'];
  const admin = { auth: 'user', role: 'admin', tags } as const;
  return [
    route({
      ...admin, method: 'GET', path: '/api/admin/workspaces', operationId: 'admin_list_workspaces', summary: 'The workspaces of the organization, by name, with their member counts',
      response: z.object({ workspaces: z.array(Workspace) }),
      handler: async ({ principal }) => ({ workspaces: await workspaces.listOrgWorkspaces(deps, principal) }),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/workspaces', operationId: 'admin_create_workspace', status: 201, errors: NAME_TAKEN,
      summary: 'Creates a workspace; the admin who creates it is its first admin', body: z.object({ name: Name }), response: Workspace,
      handler: ({ principal, body }) => workspaces.createWorkspace(deps, principal, body.name),
    }),
    route({
      ...admin, method: 'PATCH', path: '/api/admin/workspaces/{workspace_id}', operationId: 'admin_rename_workspace', errors: NAME_TAKEN,
      summary: 'Renames a workspace', params: WorkspaceId, body: z.object({ name: Name }), response: Workspace,
      handler: ({ principal, params, body }) => workspaces.renameWorkspace(deps, principal, params.workspace_id, body.name),
    }),
    route({
      ...admin, method: 'DELETE', path: '/api/admin/workspaces/{workspace_id}', operationId: 'admin_delete_workspace', status: 204,
      summary: 'Removes a workspace (confirm=true) with its chats; its members\' sessions and tokens there stop working; their base organization stays',
      params: WorkspaceId, query: z.object({ confirm: z.literal('true').describe('Must be true') }),
      handler: ({ principal, params }) => workspaces.deleteWorkspace(deps, principal, params.workspace_id),
    }),
    route({
      ...admin, method: 'GET', path: '/api/admin/workspaces/{workspace_id}/members', operationId: 'admin_list_workspace_members', summary: 'The members of a workspace, by email',
      params: WorkspaceId, response: Members,
      handler: async ({ principal, params }) => ({ members: await workspaces.listWorkspaceMembers(deps, principal, params.workspace_id) }),
    }),
    route({
      ...admin, method: 'PUT', path: '/api/admin/workspaces/{workspace_id}/members/{user_id}', operationId: 'admin_set_workspace_member',
      summary: 'Adds a member of the organization to the workspace with a role, or changes their role there', params: MemberParams, body: z.object({ role: z.enum(ROLES) }), response: Members,
      handler: async ({ principal, params, body }) => ({ members: await workspaces.setWorkspaceMember(deps, principal, params.workspace_id, params.user_id, body.role) }),
    }),
    route({
      ...admin, method: 'DELETE', path: '/api/admin/workspaces/{workspace_id}/members/{user_id}', operationId: 'admin_remove_workspace_member', status: 204,
      summary: 'Takes a member out of the workspace: their sessions and tokens there stop working', params: MemberParams,
      handler: ({ principal, params }) => workspaces.removeWorkspaceMember(deps, principal, params.workspace_id, params.user_id),
    }),
  ];
}
