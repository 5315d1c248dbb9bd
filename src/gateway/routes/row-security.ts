// Row-level security facts (admin): user attributes and groups that row filters refer to.
import { z } from 'zod';
import { previewRowSecurity } from '../../compose/row-security-preview.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Attributes = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Letters, digits and _, not starting with a digit, at most 64 characters'), z.string().max(1000));
const Group = z.object({ id: z.string(), name: z.string(), members: z.array(z.string()) });
const UserId = z.object({ user_id: z.string().min(1).max(100) });
const GroupId = z.object({ group_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Letters, digits, _ and -, at most 64 characters') });

/** Admin endpoints behind `{{user.<attribute>}}` and `{{user.groups}}` placeholders. */
export function rowSecurityRoutes(s: Services) {
  const rls = s.rowSecurity;
  return [
    route({
      method: 'GET',
      path: '/api/row-security/users/{user_id}/attributes',
      operationId: 'get_user_attributes',
      summary: 'A member\'s attributes and groups as row filters see them',
      tags: ['row-security'],
      auth: 'user',
      role: 'admin',
      params: UserId,
      response: z.object({ user_id: z.string(), attributes: Attributes, groups: z.array(z.string()) }),
      handler: async ({ principal, params }) => {
        return { user_id: params.user_id, ...(await rls.attributesOf(principal, params.user_id)) };
      },
    }),
    route({
      method: 'GET',
      path: '/api/row-security/users/{user_id}/preview',
      operationId: 'preview_row_security',
      summary: 'What a member would see: for each production table with row filters, the condition added to their queries',
      description:
        '`sees` is `all` when no filter applies to the member (an exempt role, or filters for groups they are not in), `none` when a filter needs an attribute or group the member lacks, else `filtered`.',
      tags: ['row-security'],
      auth: 'user',
      role: 'admin',
      params: UserId,
      response: z.object({
        user_id: z.string(),
        email: z.string(),
        role: z.string(),
        attributes: Attributes,
        groups: z.array(z.string()),
        tables: z.array(z.object({ connection: z.string(), schema: z.string(), name: z.string(), sees: z.enum(['all', 'filtered', 'none']), filter: z.string().nullable() })),
      }),
      handler: ({ principal, params }) => previewRowSecurity(s, principal, params.user_id),
    }),
    route({
      method: 'PUT',
      path: '/api/row-security/users/{user_id}/attributes',
      operationId: 'set_user_attributes',
      summary: 'Replaces a member\'s attributes (e.g. country, region)',
      tags: ['row-security'],
      auth: 'user',
      role: 'admin',
      params: UserId,
      body: z.object({ attributes: Attributes }),
      response: z.object({ user_id: z.string(), attributes: Attributes }),
      handler: async ({ principal, params, body }) => {
        await rls.setAttributes(principal, params.user_id, body.attributes);
        return { user_id: params.user_id, attributes: body.attributes };
      },
    }),
    route({
      method: 'GET',
      path: '/api/row-security/groups',
      operationId: 'list_groups',
      summary: 'Groups of the organization with their members',
      tags: ['row-security'],
      auth: 'user',
      role: 'admin',
      response: z.object({ groups: z.array(Group) }),
      handler: async ({ principal }) => ({ groups: await rls.listGroups(principal) }),
    }),
    route({
      method: 'PUT',
      path: '/api/row-security/groups/{group_id}',
      operationId: 'save_group',
      summary: 'Creates or replaces a group and its members (members must belong to the organization)',
      tags: ['row-security'],
      auth: 'user',
      role: 'admin',
      params: GroupId,
      body: z.object({ name: z.string().min(1).max(100), members: z.array(z.string().min(1).max(100)).max(10_000).default([]) }),
      response: Group,
      handler: ({ principal, params, body }) => rls.saveGroup(principal, { id: params.group_id, name: body.name, members: body.members }),
    }),
    route({
      method: 'DELETE',
      path: '/api/row-security/groups/{group_id}',
      operationId: 'delete_group',
      summary: 'Deletes a group',
      tags: ['row-security'],
      auth: 'user',
      role: 'admin',
      params: GroupId,
      response: z.object({ deleted: z.literal(true) }),
      handler: async ({ principal, params }) => {
        await rls.deleteGroup(principal, params.group_id);
        return { deleted: true as const };
      },
    }),
  ];
}
