// The SQL of SSO sign-ins in progress (table sso_logins): what a started login keeps for its callback
// (PKCE verifier, nonce, where to go next), found by the hash of its state and consumed once.
import { sql } from 'kysely';
import { consumeOnce } from '../../security/index.ts';
import type { Executor } from '../../store/index.ts';

/** What the callback needs of the login it finishes. */
export interface LoginState {
  code_verifier: string;
  nonce: string;
  next_path: string;
}

/** Started logins are kept a day past their expiry, then removed by a later start. */
const KEEP_EXPIRED_MS = 24 * 3600_000;

/** Stores a started login; now and then also removes the logins that expired long ago. */
export async function saveLoginState(
  store: Executor,
  p: { stateHash: string; orgId: string; type: string; login: LoginState; now: number; expiresAt: number },
): Promise<void> {
  const { code_verifier, nonce, next_path } = p.login;
  await store.run(sql`INSERT INTO sso_logins (state_hash, org_id, type, code_verifier, nonce, next_path, created_at, expires_at)
    VALUES (${p.stateHash}, ${p.orgId}, ${p.type}, ${code_verifier}, ${nonce}, ${next_path}, ${p.now}, ${p.expiresAt})`);
  if (Math.random() < 0.02) await store.run(sql`DELETE FROM sso_logins WHERE expires_at < ${p.now - KEEP_EXPIRED_MS}`);
}

/**
 * Consumes the unexpired login of this organization and provider type with this state: its saved
 * values for the one caller that consumed it, undefined for everyone else (unknown, expired, used, or
 * lost to a concurrent callback with the same state, on this replica or another).
 */
export async function consumeLoginState(store: Executor, p: { stateHash: string; orgId: string; type: string; now: number }): Promise<LoginState | undefined> {
  const where = sql<boolean>`state_hash = ${p.stateHash} AND org_id = ${p.orgId} AND type = ${p.type} AND expires_at > ${p.now}`;
  if (!(await consumeOnce(store, { table: 'sso_logins', usedColumn: 'used_at', where, now: p.now }))) return undefined;
  return store.one(sql<LoginState>`SELECT code_verifier, nonce, next_path FROM sso_logins WHERE state_hash = ${p.stateHash}`);
}
