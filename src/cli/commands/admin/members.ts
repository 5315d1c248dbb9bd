// `sextant admin members`: who is in the organization, with role, status, last sign-in and MFA.
import type { CommandContext } from '../../context.ts';
import { objectTable } from '../../output.ts';
import { adminCall, print, type Member } from './admin-client.ts';

export async function adminMembers(ctx: CommandContext, opts: { search?: string; limit?: string; cursor?: string }): Promise<void> {
  const res = await adminCall<{ members: Member[]; next_cursor: string | null }>(ctx, 'GET', '/api/admin/members', {
    query: { q: opts.search, limit: opts.limit, cursor: opts.cursor },
  });
  const rows = res.members.map((m) => ({ ...m, mfa: m.mfa_enabled ? 'on' : 'off', last_sign_in: m.last_sign_in_at ?? 'never' }));
  print(ctx, res, () =>
    rows.length === 0
      ? 'No members match.'
      : `${objectTable(rows, ['email', 'name', 'role', 'status', 'mfa', 'last_sign_in', 'user_id'])}${res.next_cursor ? `\nMore: sextant admin members --cursor ${res.next_cursor}` : ''}`,
  );
}
