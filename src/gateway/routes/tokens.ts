// Tokens (interface part 4 "Tokens and command-line login", part 2 "API tokens"): general API tokens
// for oneself and, for admins, for members of their organization; the MCP token; the CLI token.
import { z } from 'zod';
import type { Principal } from '../../auth/index.ts';
import {
  createApiToken,
  createCliToken,
  createMcpToken,
  listOwnTokens,
  listUserTokens,
  revokeOwnToken,
  revokeUserToken,
  type TokenDeps,
} from '../../auth/tokens/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

export const TokenMetadata = z
  .object({
    token_id: z.string(),
    org_id: z.string().describe('Organization the token acts in'),
    kind: z.enum(['api', 'cli', 'mcp']),
    name: z.string(),
    description: z.string(),
    prefix: z.string().describe('First characters of the value, to recognize the token'),
    scopes: z.array(z.string()),
    created_at: z.string().describe('ISO 8601'),
    expires_at: z.string().nullable().describe('ISO 8601; null: never expires'),
    last_used_at: z.string().nullable(),
    expired: z.boolean(),
  });

export const CreatedTokenResponse = TokenMetadata.extend({
  token: z.string().describe('The token value. Shown only in this response; store it now.'),
});

const TokenList = z.object({ tokens: z.array(TokenMetadata) });

const NewApiToken = z.object({
  name: z.string().min(1).max(100),
  description: z.string().max(500).default(''),
  expires_in_days: z.number().int().min(1).max(3650).nullable().optional().describe('Lifetime in days; omitted or null: never expires'),
});

const TokenId = z.object({ token_id: z.string().min(1).max(100) });
const UserId = z.object({ user_id: z.string().min(1).max(100) });
const UserTokenId = UserId.extend(TokenId.shape);

const me = (p: Principal | undefined): Principal => p!;

/** Token management routes. */
export function tokenRoutes(s: Services) {
  const deps: TokenDeps = { store: s.executor, clock: s.clock };
  const tags = ['tokens'];
  return [
    route({
      method: 'GET', path: '/api/auth/user/tokens', operationId: 'list_api_tokens', tags, auth: 'user', response: TokenList,
      summary: "Lists the caller's general API tokens (metadata only, never values)",
      handler: async ({ principal }) => ({ tokens: await listOwnTokens(deps, me(principal), ['api']) }),
    }),
    route({
      method: 'POST', path: '/api/auth/user/tokens', operationId: 'create_api_token', tags, auth: 'user', status: 201,
      body: NewApiToken, response: CreatedTokenResponse,
      summary: 'Creates a general API token for the caller; the value is returned once',
      handler: ({ principal, body }) =>
        createApiToken(deps, me(principal), { name: body.name, description: body.description, expiresInDays: body.expires_in_days ?? null }),
    }),
    route({
      method: 'DELETE', path: '/api/auth/user/tokens/{token_id}', operationId: 'delete_api_token', tags, auth: 'user', params: TokenId,
      summary: "Revokes one of the caller's general API tokens (another user's: 404)",
      handler: async ({ principal, params }) => {
        await revokeOwnToken(deps, me(principal), params.token_id, ['api']);
      },
    }),
    route({
      method: 'GET', path: '/api/auth/admin/users/{user_id}/tokens', operationId: 'admin_list_user_tokens', tags, auth: 'user', role: 'admin',
      params: UserId, response: TokenList,
      summary: "Admin: lists a member's tokens of every kind in the admin's organization (404 outside it)",
      handler: async ({ principal, params }) => ({ tokens: await listUserTokens(deps, me(principal), params.user_id) }),
    }),
    route({
      method: 'POST', path: '/api/auth/admin/users/{user_id}/tokens', operationId: 'admin_create_user_token', tags, auth: 'user', role: 'admin',
      status: 201, params: UserId, body: NewApiToken, response: CreatedTokenResponse,
      summary: "Admin: creates a general API token for a member of the admin's organization; the value is returned once",
      handler: ({ principal, params, body }) =>
        createApiToken(deps, me(principal), {
          userId: params.user_id,
          name: body.name,
          description: body.description,
          expiresInDays: body.expires_in_days ?? null,
        }),
    }),
    route({
      method: 'DELETE', path: '/api/auth/admin/users/{user_id}/tokens/{token_id}', operationId: 'admin_delete_user_token', tags, auth: 'user',
      role: 'admin', params: UserTokenId,
      summary: "Admin: revokes any token of a member of the admin's organization",
      handler: async ({ principal, params }) => {
        await revokeUserToken(deps, me(principal), params.user_id, params.token_id);
      },
    }),
    route({
      method: 'GET', path: '/api/auth/user/tokens/mcp', operationId: 'list_mcp_tokens', tags, auth: 'user', response: TokenList,
      summary: "Lists the caller's MCP tokens without values",
      handler: async ({ principal }) => ({ tokens: await listOwnTokens(deps, me(principal), ['mcp']) }),
    }),
    route({
      method: 'POST', path: '/api/auth/user/tokens/mcp', operationId: 'create_mcp_token', tags, auth: 'user', status: 201,
      response: CreatedTokenResponse,
      summary: 'Creates the MCP token (scope mcp:*, 365 days), revoking the previous one; the value is returned once',
      handler: ({ principal }) => createMcpToken(deps, me(principal)),
    }),
    route({
      method: 'DELETE', path: '/api/auth/user/tokens/mcp/{token_id}', operationId: 'delete_mcp_token', tags, auth: 'user', params: TokenId,
      summary: "Deletes (revokes) one of the caller's MCP tokens; another user's: 404",
      // Revoking here is what "deleting the MCP token revokes" means (interface part 5, MCP OAuth);
      // OAuth grant cleanup for the user can hook in after this call.
      handler: async ({ principal, params }) => {
        await revokeOwnToken(deps, me(principal), params.token_id, ['mcp']);
      },
    }),
    route({
      method: 'GET', path: '/api/auth/user/tokens/cli', operationId: 'list_cli_tokens', tags, auth: 'user', response: TokenList,
      summary: "Lists the caller's CLI tokens without values (at most one is active)",
      handler: async ({ principal }) => ({ tokens: await listOwnTokens(deps, me(principal), ['cli']) }),
    }),
    route({
      method: 'DELETE', path: '/api/auth/user/tokens/cli/{token_id}', operationId: 'delete_cli_token', tags, auth: 'user', params: TokenId,
      summary: "Revokes one of the caller's CLI tokens (signs that CLI out); another user's: 404",
      handler: async ({ principal, params }) => {
        await revokeOwnToken(deps, me(principal), params.token_id, ['cli']);
      },
    }),
    route({
      method: 'POST', path: '/api/auth/user/tokens/cli', operationId: 'create_cli_token', tags, auth: 'user', status: 201,
      response: CreatedTokenResponse,
      summary: "Creates a CLI token (scope api:full), revoking the caller's existing CLI tokens; the value is returned once",
      handler: ({ principal }) => createCliToken(deps, me(principal)),
    }),
  ];
}
