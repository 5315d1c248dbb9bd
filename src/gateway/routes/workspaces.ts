// Workspace listing and switching (interface part 4). Switching answers with a session JWT for the
// target organization, sets it as the cookie and leaves a short-lived last-workspace hint.
import { z } from 'zod';
import { listWorkspaces, setDefaultWorkspace, switchToBaseOrg, switchToWorkspace, type WorkspaceDeps } from '../../auth/account/workspaces.ts';
import { setWorkspaceHintCookie } from '../cookies.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { sessionAnswer } from './auth.ts';

const Switched = z.object({ access_token: z.string(), token_type: z.string(), expires_in: z.number(), org_id: z.string() });
const Workspace = z.object({ org_id: z.string(), name: z.string(), role: z.string() });
const WorkspaceList = z.object({
  base_org: Workspace.extend({ role: z.string().nullable().describe('Null when the caller is a member of workspaces only') }),
  workspaces: z.array(Workspace),
  current_org_id: z.string().describe('The organization the caller acts in now'),
  default_workspace_id: z.string().nullable().describe('Where new sign-ins start; null: the base organization'),
});

export function workspaceRoutes(s: Services) {
  const deps: WorkspaceDeps = { ...s.auth, store: s.executor };
  const https = s.config.baseUrl.startsWith('https://');
  return [
    route({
      method: 'GET',
      path: '/api/auth/list_workspaces',
      operationId: 'list_workspaces',
      summary: 'The base organization plus the workspaces the caller belongs to',
      tags: ['workspaces'],
      auth: 'user',
      response: WorkspaceList,
      handler: async ({ principal }) => listWorkspaces(deps, principal),
    }),
    route({
      method: 'POST',
      path: '/api/auth/switch_to_workspace',
      operationId: 'switch_to_workspace',
      summary: 'A session in a workspace the caller belongs to; sets a short-lived last-workspace hint cookie',
      tags: ['workspaces'],
      auth: 'user',
      body: z.object({ workspace_org_id: z.string().min(1).max(100) }),
      response: Switched,
      handler: async ({ principal, body, ctx }) => {
        const switched = await switchToWorkspace(deps, principal, body.workspace_org_id);
        setWorkspaceHintCookie(ctx, switched.orgId, https);
        return { ...sessionAnswer(s, ctx, switched), org_id: switched.orgId };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/switch_to_base_org',
      operationId: 'switch_to_base_org',
      summary: 'A session in the base organization, from a workspace or the base itself',
      tags: ['workspaces'],
      auth: 'user',
      body: z.object({}).optional(),
      response: Switched,
      handler: async ({ principal, ctx }) => {
        const switched = await switchToBaseOrg(deps, principal);
        setWorkspaceHintCookie(ctx, null, https);
        return { ...sessionAnswer(s, ctx, switched), org_id: switched.orgId };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/set_my_default_workspace',
      operationId: 'set_my_default_workspace',
      summary: 'Sets the workspace new sign-ins start in (null clears it); confirm must be true',
      tags: ['workspaces'],
      auth: 'user',
      body: z.object({ workspace_org_id: z.string().min(1).max(100).nullable(), confirm: z.literal(true) }),
      response: z.object({ status: z.literal('ok'), default_workspace_id: z.string().nullable() }),
      handler: async ({ principal, body }) => {
        await setDefaultWorkspace(deps, principal, body.workspace_org_id);
        return { status: 'ok' as const, default_workspace_id: body.workspace_org_id };
      },
    }),
  ];
}
