// The steps behind the sign-in and consent pages: sign-in hand-over to the provider, the consent
// page, and granting (or denying) what the client asked for.
import type { Context } from 'koa';
import { Forbidden } from '../../errors.ts';
import { accountIdFor, MCP_SCOPE } from '../../auth/oauth/account.ts';
import type { Services } from '../../compose/services.ts';
import { consentPage } from './consent-page.ts';
import { loginUrl, signedInPrincipal } from '../signed-in.ts';
import { consentCsrf, consentCsrfValid, finishInteraction, loadInteraction, type Interaction } from './interaction.ts';

/** GET /interaction/<uid>: sign-in hand-over, or the consent page. */
export async function showInteraction(s: Services, ctx: Context, uid: string): Promise<void> {
  const details = await loadInteraction(s, ctx, uid);
  const user = await signedInPrincipal(s, ctx);
  if (!user) return ctx.redirect(loginUrl(`/interaction/${uid}`));
  const accountId = accountIdFor(user.userId, user.orgId);
  // The provider's own session may remember someone else (signed out since, or another organization):
  // the Sextant session decides, so a fresh login result replaces it.
  if (details.prompt.name === 'login' || details.session?.accountId !== accountId) {
    return finishInteraction(s, ctx, { login: { accountId } }, false);
  }
  const client = await (await s.oauth.provider()).Client.find(String(details.params['client_id']));
  const redirectUri = String(details.params['redirect_uri'] ?? '');
  ctx.type = 'html';
  ctx.body = consentPage({
    uid,
    clientName: client?.clientName ?? String(details.params['client_id']),
    redirectHost: URL.canParse(redirectUri) ? new URL(redirectUri).host || redirectUri : redirectUri,
    scopes: requestedScopes(details),
    principal: user,
    csrf: consentCsrf(s, uid, user),
  });
}

/** POST /interaction/<uid>/confirm: grants the missing scopes and resources. */
export async function confirmConsent(s: Services, ctx: Context, uid: string, csrf: string): Promise<void> {
  const details = await consentStep(s, ctx, uid, csrf);
  const provider = await s.oauth.provider();
  const accountId = details.session!.accountId;
  const grant =
    (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
    new provider.Grant({ accountId, clientId: String(details.params['client_id']) });
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await finishInteraction(s, ctx, { consent: { grantId } }, true);
}

/** Checks a consent form post: fresh interaction at the consent step, same signed-in user, CSRF. */
export async function consentStep(s: Services, ctx: Context, uid: string, csrf: string): Promise<Interaction> {
  const details = await loadInteraction(s, ctx, uid);
  const user = await signedInPrincipal(s, ctx);
  if (!user || details.prompt.name !== 'consent' || !consentCsrfValid(s, uid, user, csrf)) throw new Forbidden('Invalid consent form', 'CONSENT_FORM_INVALID');
  if (details.session?.accountId !== accountIdFor(user.userId, user.orgId)) throw new SignedInUserChanged();
  return details;
}

function requestedScopes(details: Interaction): string[] {
  const scope = typeof details.params['scope'] === 'string' ? details.params['scope'] : MCP_SCOPE;
  const scopes = new Set(scope.split(' ').filter(Boolean));
  scopes.add(MCP_SCOPE); // granted through the /ai/mcp resource even when not asked for by name
  return [...scopes];
}

class SignedInUserChanged extends Forbidden {
  constructor() {
    super('You are signed in as a different user than when this authorization started', 'SIGNED_IN_USER_CHANGED');
  }
}
