// `sextant admin role <member> <role>`: changes a member's role (the last admin stays admin).
import type { CommandContext } from '../../context.ts';
import { adminCall, print, resolveMember, type Member } from './admin-client.ts';

export async function adminRole(ctx: CommandContext, who: string, role: string, opts: { canMerge?: boolean }): Promise<void> {
  const member = await resolveMember(ctx, who);
  const res = await adminCall<Member & { can_merge: boolean }>(ctx, 'PUT', `/api/admin/members/${encodeURIComponent(member.user_id)}/role`, {
    body: { role, ...(opts.canMerge !== undefined ? { can_merge: opts.canMerge } : {}) },
  });
  print(ctx, res, () => `${res.email} is now ${res.role}${res.role === 'modeler' && res.can_merge ? ' (may merge to production)' : ''}.`);
}
