// Embedded-user tokens: short-lived JWTs for showing the product inside another application as a
// member of the caller's organization. Admins mint them for members; others only for themselves.
import type { Clock } from '../clock.ts';
import { Forbidden, NotFound } from '../errors.ts';
import type { Db } from '../store/index.ts';
import { getMembership, getUser } from './directory.ts';
import { signJwt } from './jwt.ts';
import type { Principal } from './principal.ts';

export const EMBEDDED_TTL_SECONDS = 15 * 60;

/** Mints an embedded-user token for a member of the caller's organization. */
export function embeddedUserLogin(deps: { db: Db; clock: Clock; jwtKey: string }, principal: Principal, userId: string = principal.userId): { access_token: string; token_type: 'bearer'; expires_in: number; org_id: string } {
  if (principal.credential === 'embedded') throw new Forbidden('Embedded tokens cannot mint tokens', 'EMBEDDED_NOT_ALLOWED');
  if (userId !== principal.userId && principal.role !== 'admin') throw new Forbidden();
  const user = getUser(deps.db, userId);
  if (!user || user.disabled_at !== null || !getMembership(deps.db, user.id, principal.orgId)) throw new NotFound('User not found', 'USER_NOT_FOUND');
  const token = signJwt(deps.jwtKey, deps.clock, 'embedded', { sub: user.id, org: principal.orgId, tv: user.token_version }, EMBEDDED_TTL_SECONDS);
  return { access_token: token, token_type: 'bearer', expires_in: EMBEDDED_TTL_SECONDS, org_id: principal.orgId };
}
