// `sextant admin deactivate <member>`: every session and token of theirs stops working; --reactivate undoes it.
import type { CommandContext } from '../../context.ts';
import { adminCall, print, resolveMember, type Member } from './admin-client.ts';

export async function adminDeactivate(ctx: CommandContext, who: string, opts: { reactivate?: boolean }): Promise<void> {
  const member = await resolveMember(ctx, who);
  const action = opts.reactivate ? 'reactivate' : 'deactivate';
  const res = await adminCall<Member>(ctx, 'POST', `/api/admin/members/${encodeURIComponent(member.user_id)}/${action}`);
  print(ctx, res, () =>
    opts.reactivate ? `${res.email} is active again; they sign in anew.` : `${res.email} is deactivated: their sessions and tokens no longer work. Their chats stay.`,
  );
}
