// The browser side of the CLI sign-in: show the user_code, then approve (complete) or deny. A decision
// is one conditional UPDATE on a pending row: among concurrent decisions (on any replica) one wins.
import type { Principal } from '../../principal.ts';
import { createCliToken } from '../create-exclusive-token.ts';
import { CliLoginAlreadyDecided } from '../errors.ts';
import { findLiveCliLogin, type CliLoginDeps, type CliLoginRow, type CliLoginStatus, type CliLoginStoreDeps } from './cli-login-store.ts';

export interface CliLoginInfo {
  user_code: string;
  expires_at: string;
}

/** What a signed-in user sees before deciding: the user_code only, never who started the sign-in. */
export async function getCliLoginInfo(deps: CliLoginStoreDeps, _principal: Principal, code: string): Promise<CliLoginInfo> {
  const row = await findLiveCliLogin(deps, code);
  if (row.status !== 'pending') throw new CliLoginAlreadyDecided(row.status);
  return { user_code: deps.secretBox.open(row.user_code_sealed), expires_at: new Date(row.expires_at).toISOString() };
}

/**
 * Moves the live pending sign-in `code` names to `status`, or throws as its current state says
 * (not found, expired, already decided). Exactly one of concurrent deciders returns.
 */
async function decide(deps: CliLoginStoreDeps, principal: Pick<Principal, 'userId'>, code: string, status: Exclude<CliLoginStatus, 'pending'>): Promise<CliLoginRow> {
  const row = await findLiveCliLogin(deps, code);
  if (row.status !== 'pending') throw new CliLoginAlreadyDecided(row.status);
  const now = deps.clock.now();
  const { changes } = await deps.store.run(
    deps.store.db
      .updateTable('cli_logins')
      .set({ status, user_id: principal.userId, decided_at: now })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now),
  );
  if (changes === 1) return row;
  // Another decision won: answer as a later request would (decided, claimed and gone, or expired).
  throw new CliLoginAlreadyDecided((await findLiveCliLogin(deps, code)).status);
}

/**
 * Approves a pending sign-in: mints the caller's CLI token (revoking their older CLI tokens) and
 * holds it, sealed, against the code until the CLI claims it. The approval is claimed before the
 * token is minted, so two approvals mint one token; until the token is stored, polls see "pending".
 */
export async function completeCliLogin(deps: CliLoginDeps, principal: Principal, code: string): Promise<{ status: 'approved'; user_code: string }> {
  const row = await decide(deps, principal, code, 'approved');
  const token = await createCliToken(deps, principal);
  await deps.store.run(
    deps.store.db.updateTable('cli_logins').set({ token_id: token.token_id, token_sealed: deps.secretBox.seal(token.token) }).where('id', '=', row.id),
  );
  return { status: 'approved', user_code: deps.secretBox.open(row.user_code_sealed) };
}

/** Denies a pending sign-in; the CLI's next poll learns it was denied. */
export async function denyCliLogin(deps: CliLoginStoreDeps, principal: Pick<Principal, 'userId'>, code: string): Promise<{ status: 'denied' }> {
  await decide(deps, principal, code, 'denied');
  return { status: 'denied' };
}
