// Helpers of the sign-in and consent pages: loading the provider's interaction with our own expiry
// check (injected Clock), the signed-in user from the session cookie, and CSRF tokens.
import { createHmac } from 'node:crypto';
import type { Context } from 'koa';
import type { InteractionResults } from 'oidc-provider';
import { authenticate, type Principal } from '../../auth/index.ts';
import { AuthorizationSessionExpired } from '../../mcp/oauth/errors.ts';
import { interactionCreatedAt } from '../../mcp/oauth/sqlite-adapter.ts';
import { constantTimeEqual } from '../../security/index.ts';
import { SESSION_COOKIE } from '../cookies.ts';
import type { Services } from '../services.ts';
import { INTERACTION_TTL_SECONDS } from './create-provider.ts';

export type Interaction = Awaited<ReturnType<Services['oauth']['provider']['interactionDetails']>>;

/** The interaction behind `/interaction/<uid>`, or AuthorizationSessionExpired when stale or gone. */
export async function loadInteraction(s: Services, ctx: Context, uid: string): Promise<Interaction> {
  let details: Interaction;
  try {
    details = await s.oauth.provider.interactionDetails(ctx.req, ctx.res);
  } catch {
    throw new AuthorizationSessionExpired();
  }
  const created = interactionCreatedAt(s.store.db, details.uid);
  if (details.uid !== uid || created === undefined || s.clock.now() - created >= INTERACTION_TTL_SECONDS * 1000) {
    throw new AuthorizationSessionExpired();
  }
  return details;
}

/** The user signed in to Sextant in this browser (session cookie), if any. */
export function signedInUser(s: Services, ctx: Context): Principal | undefined {
  const value = ctx.cookies.get(SESSION_COOKIE, { signed: false });
  if (!value) return undefined;
  try {
    const p = authenticate({ db: s.store.db, clock: s.clock, jwtKey: s.config.secrets.jwtKey }, { via: 'cookie', value });
    return p.credential === 'session' ? p : undefined;
  } catch {
    return undefined;
  }
}

/** A CSRF token bound to the interaction and the signed-in session. */
export function csrfToken(s: Services, uid: string, p: Principal): string {
  return createHmac('sha256', s.config.secrets.jwtKey).update(`oauth-consent:${uid}:${p.sessionId ?? p.userId}`).digest('base64url');
}

export function csrfValid(s: Services, uid: string, p: Principal, presented: string): boolean {
  return constantTimeEqual(csrfToken(s, uid, p), presented);
}

/** Hands a result back to the provider and redirects the browser to where it continues. */
export async function finishInteraction(s: Services, ctx: Context, result: InteractionResults, merge: boolean): Promise<void> {
  const to = await s.oauth.provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge });
  ctx.redirect(to);
  ctx.status = 303;
}
