// `sextant admin invite <email>`: mails a single-use invitation link with a role.
import type { CommandContext } from '../../context.ts';
import { adminCall, print } from './admin-client.ts';

export async function adminInvite(ctx: CommandContext, email: string, opts: { role?: string }): Promise<void> {
  const res = await adminCall<{ invitation_id: string; email: string; role: string; expires_at: string }>(ctx, 'POST', '/api/admin/invitations', {
    body: { email, role: opts.role ?? 'user' },
  });
  print(ctx, res, () => `Invited ${res.email} as ${res.role}; the link in the mail works once, until ${res.expires_at}.`);
}
