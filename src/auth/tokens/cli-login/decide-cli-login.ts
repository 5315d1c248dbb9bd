// The browser side of the CLI sign-in: show the user_code, then approve (complete) or deny.
import type { Principal } from '../../principal.ts';
import { createCliToken } from '../create-exclusive-token.ts';
import { CliLoginAlreadyDecided } from '../errors.ts';
import { findLiveCliLogin, type CliLoginDeps } from './cli-login-store.ts';
import { transact } from '../../../store/index.ts';

export interface CliLoginInfo {
  user_code: string;
  expires_at: string;
}

/** What a signed-in user sees before deciding: the user_code only, never who started the sign-in. */
export function getCliLoginInfo(deps: CliLoginDeps, _principal: Principal, code: string): CliLoginInfo {
  const row = findLiveCliLogin(deps, code);
  if (row.status !== 'pending') throw new CliLoginAlreadyDecided(row.status);
  return { user_code: deps.secretBox.open(row.user_code_sealed), expires_at: new Date(row.expires_at).toISOString() };
}

/**
 * Approves a pending sign-in: mints the caller's CLI token (revoking their older CLI tokens) and
 * holds it, sealed, against the code until the CLI claims it. Atomic: two approvals mint one token.
 */
export function completeCliLogin(deps: CliLoginDeps, principal: Principal, code: string): { status: 'approved'; user_code: string } {
  return transact(deps.db, () => {
    const row = findLiveCliLogin(deps, code);
    if (row.status !== 'pending') throw new CliLoginAlreadyDecided(row.status);
    const token = createCliToken(deps, principal);
    deps.db
      .prepare(`UPDATE cli_logins SET status = 'approved', user_id = ?, token_id = ?, token_sealed = ?, decided_at = ? WHERE id = ?`)
      .run(principal.userId, token.token_id, deps.secretBox.seal(token.token), deps.clock.now(), row.id);
    return { status: 'approved' as const, user_code: deps.secretBox.open(row.user_code_sealed) };
  });
}

/** Denies a pending sign-in; the CLI's next poll learns it was denied. */
export function denyCliLogin(deps: CliLoginDeps, principal: Principal, code: string): { status: 'denied' } {
  return transact(deps.db, () => {
    const row = findLiveCliLogin(deps, code);
    if (row.status !== 'pending') throw new CliLoginAlreadyDecided(row.status);
    deps.db.prepare(`UPDATE cli_logins SET status = 'denied', user_id = ?, decided_at = ? WHERE id = ?`).run(principal.userId, deps.clock.now(), row.id);
    return { status: 'denied' as const };
  });
}
