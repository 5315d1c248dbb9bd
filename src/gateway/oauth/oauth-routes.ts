// The MCP authorization's pages and metadata: protected resource metadata (RFC 9728), the sign-in
// and consent steps of oidc-provider's interactions, and a user's connected clients.
import type { Context } from 'koa';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { MCP_SCOPE } from '../../auth/oauth/account.ts';
import { disconnectClient, listConnectedClients } from '../../auth/oauth/connected-clients.ts';
import { writeError } from '../error-handler.ts';
import { errorPage } from './consent-page.ts';
import { finishInteraction } from './interaction.ts';
import { confirmConsent, consentStep, showInteraction } from './interaction-steps.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

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
  // The two answers of the consent page: a form post back to the interaction, answered with a page.
  const consentForm = { tags, auth: 'none', params: Uid, body: Csrf, bodyType: 'form', produces: 'text/html' } as const;
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
      ...consentForm,
      handler: ({ params, body, ctx }) => page(ctx, () => confirmConsent(s, ctx, params.uid, body.csrf)),
    }),
    route({
      method: 'POST',
      path: '/interaction/{uid}/abort',
      operationId: 'mcp_oauth_consent_abort',
      summary: 'Denies the MCP client',
      ...consentForm,
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
      handler: async ({ principal }) => ({ clients: await listConnectedClients({ store: s.executor, clock: s.clock }, principal) }),
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
      handler: async ({ params, principal }) => disconnectClient({ store: s.executor, clock: s.clock }, principal, params.grant_id),
    }),
  ];
}

/** Runs a page handler; expected failures become an HTML page with the matching status. */
async function page(ctx: Context, fn: () => Promise<void>): Promise<void> {
  // The consent page carries the person's address and a CSRF token: no cache keeps it.
  ctx.set('Cache-Control', 'no-store');
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    writeError(ctx, err);
    ctx.type = 'html';
    ctx.body = errorPage(err.message);
  }
}
