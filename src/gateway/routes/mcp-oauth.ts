// The MCP authorization's pages and metadata: protected resource metadata (RFC 9728), the sign-in
// and consent steps of oidc-provider's interactions, and a user's connected clients.
import type { Context } from 'koa';
import { z } from 'zod';
import { AppError, Forbidden } from '../../errors.ts';
import { accountIdFor, MCP_SCOPE } from '../../mcp/oauth/account.ts';
import { disconnectClient, listConnectedClients } from '../../mcp/oauth/connected-clients.ts';
import { writeError } from '../error-handler.ts';
import { consentPage, errorPage } from '../oauth/consent-page.ts';
import { csrfToken, csrfValid, finishInteraction, loadInteraction, signedInUser, type Interaction } from '../oauth/interaction.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';

const Uid = z.object({ uid: z.string().min(1).max(100) });
const Csrf = z.object({ csrf: z.string().min(1).max(200) });
const ProtectedResource = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  resource_name: z.string(),
});
const ConnectedClient = z.object({
  grant_id: z.string(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  client_uri: z.string().nullable(),
  org_id: z.string(),
  scopes: z.array(z.string()),
  connected_at: z.number(),
  expires_at: z.number().nullable(),
});

export function mcpOAuthRoutes(s: Services) {
  const prm = () => ({
    resource: s.oauth.resource,
    authorization_servers: [s.oauth.issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Sextant MCP',
  });
  const tags = ['mcp'];
  return [
    route({ method: 'GET', path: '/.well-known/oauth-protected-resource/ai/mcp', operationId: 'mcp_protected_resource', summary: 'OAuth protected resource metadata of /ai/mcp (RFC 9728)', tags, auth: 'none', response: ProtectedResource, handler: prm }),
    route({ method: 'GET', path: '/.well-known/oauth-protected-resource', operationId: 'mcp_protected_resource_root', summary: 'Protected resource metadata, root form', tags, auth: 'none', response: ProtectedResource, handler: prm }),
    route({
      method: 'GET',
      path: '/interaction/{uid}',
      operationId: 'mcp_oauth_interaction',
      summary: 'Sign-in and consent step of an MCP client authorization (HTML)',
      tags,
      auth: 'none',
      params: Uid,
      produces: 'text/html',
      handler: ({ params, ctx }) => page(ctx, () => showInteraction(s, ctx, params.uid)),
    }),
    route({
      method: 'POST',
      path: '/interaction/{uid}/confirm',
      operationId: 'mcp_oauth_consent_confirm',
      summary: 'Grants the MCP client the requested permissions',
      tags,
      auth: 'none',
      params: Uid,
      body: Csrf,
      bodyType: 'form',
      produces: 'text/html',
      handler: ({ params, body, ctx }) => page(ctx, () => confirm(s, ctx, params.uid, body.csrf)),
    }),
    route({
      method: 'POST',
      path: '/interaction/{uid}/abort',
      operationId: 'mcp_oauth_consent_abort',
      summary: 'Denies the MCP client',
      tags,
      auth: 'none',
      params: Uid,
      body: Csrf,
      bodyType: 'form',
      produces: 'text/html',
      handler: ({ params, body, ctx }) =>
        page(ctx, async () => {
          await consentStep(s, ctx, params.uid, body.csrf);
          await finishInteraction(s, ctx, { error: 'access_denied', error_description: 'The user denied access' }, false);
        }),
    }),
    route({
      method: 'GET',
      path: '/api/auth/user/mcp/clients',
      operationId: 'list_mcp_connected_clients',
      summary: 'MCP clients the caller connected with OAuth',
      tags,
      auth: 'user',
      response: z.object({ clients: z.array(ConnectedClient) }),
      handler: ({ principal }) => ({ clients: listConnectedClients(s.store.db, s.clock, principal!) }),
    }),
    route({
      method: 'DELETE',
      path: '/api/auth/user/mcp/clients/{grant_id}',
      operationId: 'disconnect_mcp_client',
      summary: 'Disconnects an MCP client: revokes its grant with every access and refresh token',
      tags,
      auth: 'user',
      params: z.object({ grant_id: z.string().min(1).max(200) }),
      status: 204,
      handler: ({ params, principal }) => disconnectClient(s.store.db, s.clock, principal!, params.grant_id),
    }),
  ];
}

/** Runs a page handler; expected failures become an HTML page with the matching status. */
async function page(ctx: Context, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    writeError(ctx, err);
    ctx.type = 'html';
    ctx.body = errorPage(err.message);
  }
}

const loginUrl = (uid: string) => `/login?next=${encodeURIComponent(`/interaction/${uid}`)}`;

async function showInteraction(s: Services, ctx: Context, uid: string): Promise<void> {
  const details = await loadInteraction(s, ctx, uid);
  const user = signedInUser(s, ctx);
  if (!user) return ctx.redirect(loginUrl(uid));
  if (details.prompt.name === 'login') {
    return finishInteraction(s, ctx, { login: { accountId: accountIdFor(user.userId, user.orgId) } }, false);
  }
  if (details.session?.accountId !== accountIdFor(user.userId, user.orgId)) throw new SignedInUserChanged();
  const client = await s.oauth.provider.Client.find(String(details.params['client_id']));
  const redirectUri = String(details.params['redirect_uri'] ?? '');
  ctx.type = 'html';
  ctx.body = consentPage({
    uid,
    clientName: client?.clientName ?? String(details.params['client_id']),
    redirectHost: URL.canParse(redirectUri) ? new URL(redirectUri).host || redirectUri : redirectUri,
    scopes: requestedScopes(details),
    principal: user,
    csrf: csrfToken(s, uid, user),
  });
}

async function confirm(s: Services, ctx: Context, uid: string, csrf: string): Promise<void> {
  const details = await consentStep(s, ctx, uid, csrf);
  const { provider } = s.oauth;
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
async function consentStep(s: Services, ctx: Context, uid: string, csrf: string): Promise<Interaction> {
  const details = await loadInteraction(s, ctx, uid);
  const user = signedInUser(s, ctx);
  if (!user || details.prompt.name !== 'consent' || !csrfValid(s, uid, user, csrf)) throw new Forbidden('Invalid consent form', 'CONSENT_FORM_INVALID');
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
