// Embedded-user tokens: short-lived JWTs for showing the product inside another application as a
// member of the caller's organization. Admins mint them for members; others only for themselves.
// Each stands for an embedded session row tied to the caller's session or API token, so logout, a
// password change, a token_version change or revoking that token ends it on the next request.
import type { Clock } from '../../clock.ts';
import { Forbidden, NotFound } from '../../errors.ts';
import type { Db, Executor } from '../../store/index.ts';
import { getMembership, getUser } from '../directory.ts';
import type { Principal } from '../principal.ts';
import { startSession } from './sessions.ts';

export const EMBEDDED_TTL_SECONDS = 15 * 60;

/** Mints an embedded-user token for a member of the caller's organization. */
export async function embeddedUserLogin(
  deps: { db: Db; store: Executor; clock: Clock; jwtKey: string; ttlSeconds?: number },
  principal: Principal,
  userId: string = principal.userId,
): Promise<{ access_token: string; token_type: 'bearer'; expires_in: number; org_id: string }> {
  if (principal.credential === 'embedded') throw new Forbidden('Embedded tokens cannot mint tokens', 'EMBEDDED_NOT_ALLOWED');
  if (userId !== principal.userId && principal.role !== 'admin') throw new Forbidden();
  const user = await getUser(deps.store, userId);
  if (!user || user.disabled_at !== null || !(await getMembership(deps.store, user.id, principal.orgId))) throw new NotFound('User not found', 'USER_NOT_FOUND');
  const ttlSeconds = deps.ttlSeconds ?? EMBEDDED_TTL_SECONDS;
  const parent = { sessionId: principal.sessionId, tokenId: principal.sessionId ? undefined : principal.tokenId };
  const { token } = startSession(deps, user, principal.orgId, { kind: 'embedded', ttlSeconds, parent });
  return { access_token: token, token_type: 'bearer', expires_in: ttlSeconds, org_id: principal.orgId };
}
