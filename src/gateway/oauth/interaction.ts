// Helpers of the sign-in and consent pages: loading the provider's interaction with our own expiry
// check (injected Clock), CSRF tokens of the consent form, and handing results back to the provider.
import type { Context } from 'koa';
import type { InteractionResults } from 'oidc-provider';
import type { Principal } from '../../auth/index.ts';
import { AuthorizationSessionExpired } from '../../auth/oauth/errors.ts';
import { interactionCreatedAt } from '../../auth/oauth/store-adapter.ts';
import { checkCsrfToken, csrfToken } from '../../security/index.ts';
import type { Services } from '../../compose/services.ts';
import { INTERACTION_TTL_SECONDS } from '../../auth/oauth/create-provider.ts';

export type Interaction = Awaited<ReturnType<Awaited<ReturnType<Services['oauth']['provider']>>['interactionDetails']>>;

/** The interaction behind `/interaction/<uid>`, or AuthorizationSessionExpired when stale or gone. */
export async function loadInteraction(s: Services, ctx: Context, uid: string): Promise<Interaction> {
  let details: Interaction;
  try {
    details = await (await s.oauth.provider()).interactionDetails(ctx.req, ctx.res);
  } catch {
    throw new AuthorizationSessionExpired();
  }
  const created = await interactionCreatedAt(s.executor, details.uid);
  if (details.uid !== uid || created === undefined || s.clock.now() - created >= INTERACTION_TTL_SECONDS * 1000) {
    throw new AuthorizationSessionExpired();
  }
  return details;
}

/** A CSRF token of the consent form, bound to the interaction and the signed-in session. */
export function consentCsrf(s: Services, uid: string, p: Principal): string {
  return csrfToken(s.config.secrets.jwtKey, 'mcp-consent', [p.sessionId ?? p.userId, uid]);
}

export function consentCsrfValid(s: Services, uid: string, p: Principal, presented: string): boolean {
  return checkCsrfToken(s.config.secrets.jwtKey, 'mcp-consent', [p.sessionId ?? p.userId, uid], presented);
}

/** Hands a result back to the provider and redirects the browser to where it continues. */
export async function finishInteraction(s: Services, ctx: Context, result: InteractionResults, merge: boolean): Promise<void> {
  const to = await (await s.oauth.provider()).interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge });
  ctx.redirect(to);
  ctx.status = 303;
}
