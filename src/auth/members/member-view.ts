// What an admin reads about a member: the row plus their row-level security facts.
import type { Role } from '../principal.ts';
import type { MemberRow } from './member-rows.ts';
import type { MemberFactsView } from './ports.ts';

export type SignInMethod = 'password' | 'magic_link' | 'sso';

export interface MemberView {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  can_merge: boolean;
  status: 'active' | 'deactivated';
  last_sign_in_at: string | null;
  mfa_enabled: boolean;
  sign_in_methods: SignInMethod[];
  attributes: Record<string, string>;
  groups: { id: string; name: string }[];
  joined_at: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The sign-in methods the account can use (SSO-only accounts get no sign-in link). */
function methodsOf(row: MemberRow): SignInMethod[] {
  const methods: SignInMethod[] = [];
  if (row.has_password) methods.push('password');
  if (row.identity_kind !== 'sso') methods.push('magic_link');
  if (row.has_sso || row.identity_kind === 'sso') methods.push('sso');
  return methods;
}

/** The admin's view of one member. */
export function memberView(row: MemberRow, facts: MemberFactsView | undefined): MemberView {
  return {
    user_id: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    can_merge: row.role === 'admin' || row.can_merge === 1,
    status: row.deactivated_at === null && row.disabled_at === null ? 'active' : 'deactivated',
    last_sign_in_at: iso(row.last_sign_in_at),
    mfa_enabled: row.totp_enabled_at !== null,
    sign_in_methods: methodsOf(row),
    attributes: facts?.attributes ?? {},
    groups: facts?.groups ?? [],
    joined_at: iso(row.joined_at)!,
  };
}
