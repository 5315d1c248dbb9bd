// The tables of the single-use credentials as the query builder sees them (migrations 0001, 0010,
// 0020): account tokens, recovery codes, the TOTP columns of users, CLI sign-ins and the CLI tokens
// they hand over. Only the columns these stores read or write are named.
import type { Executor } from '../store/index.ts';
import type { UserTables } from './user-tables.ts';

export type AccountTokenPurpose = 'verify_email' | 'reset_password' | 'magic_link' | 'magic_code' | 'mfa_recovery';

export interface AccountTokenRow {
  id: string;
  purpose: AccountTokenPurpose;
  user_id: string;
  group_id: string | null;
  data: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export type CliLoginStatus = 'pending' | 'approved' | 'denied';

export interface CliLoginRow {
  id: string;
  poll_code_hash: string;
  browser_code_hash: string;
  user_code_sealed: string;
  status: CliLoginStatus;
  user_id: string | null;
  token_id: string | null;
  token_sealed: string | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
}

export interface SingleUseTables {
  account_tokens: AccountTokenRow & { token_hash: string };
  mfa_recovery_codes: { id: string; user_id: string; code_hash: string; created_at: number; used_at: number | null };
  users: { id: string; email: string; totp_secret: string | null; totp_pending_secret: string | null; totp_enabled_at: number | null; totp_last_step: number | null };
  cli_logins: CliLoginRow;
  api_tokens: { id: string; user_id: string; org_id: string; scopes: string; revoked_at: number | null };
}

/** The asynchronous store typed with the auth tables converted so far (one executor serves them all). */
export type AuthStore = Executor<SingleUseTables & UserTables>;

/** The store of the single-use credentials: the same executor. */
export type SingleUseStore = AuthStore;
