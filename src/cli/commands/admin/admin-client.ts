// What the admin commands share: calls that explain a 403 as "admins only", and members named by email or id.
import type { CommandContext } from '../../context.ts';
import { CliError } from '../../errors.ts';
import { apiError, type Query } from '../../http.ts';

export interface Member {
  user_id: string;
  email: string;
  name: string;
  role: string;
  status: string;
  last_sign_in_at: string | null;
  mfa_enabled: boolean;
  sign_in_methods: string[];
  attributes: Record<string, string>;
}

/** An admin API call; a 403 becomes a clear "admins only" error. */
export async function adminCall<T>(ctx: CommandContext, method: string, path: string, opts: { query?: Query; body?: unknown } = {}): Promise<T> {
  const res = await ctx.client.raw(method, path, opts);
  if (res.status === 403) throw new CliError('`sextant admin` is for admins of the organization; your role does not allow it. Ask an admin.');
  if (!res.ok) throw await apiError(res);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** The member an argument names: an email (looked up by search) or a user id. */
export async function resolveMember(ctx: CommandContext, who: string): Promise<Member> {
  if (!who.includes('@')) return adminCall<Member>(ctx, 'GET', `/api/admin/members/${encodeURIComponent(who)}`);
  const page = await adminCall<{ members: Member[] }>(ctx, 'GET', '/api/admin/members', { query: { q: who, limit: 200 } });
  const found = page.members.find((m) => m.email.toLowerCase() === who.toLowerCase());
  if (!found) throw new CliError(`No member with the address ${who} (see \`sextant admin members\`).`);
  return found;
}

/** Prints a value as JSON with --json, else as the human text. */
export const print = (ctx: CommandContext, value: unknown, human: () => string) => ctx.out.out(ctx.out.json ? JSON.stringify(value) : human());
