// Who is calling /ai/mcp: an MCP token in `X-API-KEY` (exact messages fixed by the interface), or an
// OAuth access token in `Authorization: Bearer`, checked in-process against the authorization server.
import type { Context } from 'koa';
import { authenticateApiToken, oauthPrincipal, type Principal } from '../../auth/index.ts';
import { Forbidden, Unauthorized } from '../../errors.ts';
import { MCP_SCOPE, parseAccountId } from '../../auth/oauth/account.ts';
import { sameResource } from '../../auth/oauth/create-provider.ts';
import type { Services } from '../../compose/services.ts';

/** Credential kinds the MCP endpoint accepts. */
const MCP_KINDS: Principal['credential'][] = ['mcp_token', 'oauth'];

export class McpAccessRefused extends Forbidden {
  constructor() {
    super('Token does not have required MCP access', 'MCP_ACCESS_REQUIRED');
  }
}

export class InvalidAccessToken extends Unauthorized {
  constructor() {
    super('Invalid or expired access token', 'INVALID_TOKEN');
  }
}

/** The caller of the MCP endpoint and when its credential expires (ms), if it does. */
export interface McpCaller {
  principal: Principal;
  token: string;
  clientId: string;
  expiresAt?: number;
}

/** Resolves the MCP caller; never accepts a token in the URL. */
export async function mcpCaller(s: Services, ctx: Context): Promise<McpCaller> {
  if (['api_key', 'api_token', 'token', 'access_token', 'key'].some((k) => ctx.query[k] !== undefined)) {
    throw new Unauthorized('Tokens in the URL are not supported; send the MCP token in the X-API-KEY header', 'TOKEN_IN_URL');
  }
  const apiKey = ctx.get('X-API-KEY');
  if (apiKey) {
    const principal = authenticateApiToken(s.auth, apiKey);
    if (!MCP_KINDS.includes(principal.credential)) throw new McpAccessRefused();
    return { principal, token: apiKey, clientId: `mcp_token:${principal.tokenId ?? ''}` };
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
  if (!bearer) throw new Unauthorized();
  return oauthCaller(s, bearer);
}

/** Validates an opaque OAuth access token: live, for this resource, with the MCP scope. */
async function oauthCaller(s: Services, value: string): Promise<McpCaller> {
  const token = await (await s.oauth.provider()).AccessToken.find(value);
  if (!token || token.isExpired) throw new InvalidAccessToken();
  const audiences = [token.aud].flat().filter((a): a is string => typeof a === 'string');
  if (!audiences.some((a) => sameResource(a, s.oauth.resource))) throw new InvalidAccessToken();
  const scopes = (token.scope ?? '').split(' ').filter(Boolean);
  if (!scopes.includes(MCP_SCOPE)) throw new InsufficientScope();
  const account = parseAccountId(token.accountId);
  const principal = account && (await oauthPrincipal(s.auth, account.userId, account.orgId, scopes));
  if (!principal || !token.clientId) throw new InvalidAccessToken();
  const caller: McpCaller = { principal, token: value, clientId: token.clientId };
  if (token.exp !== undefined) caller.expiresAt = token.exp * 1000;
  return caller;
}

export class InsufficientScope extends Forbidden {
  constructor() {
    super(`The access token lacks the ${MCP_SCOPE} scope`, 'INSUFFICIENT_SCOPE');
  }
}

/** The `WWW-Authenticate` challenge that points MCP clients at the protected resource metadata. */
export function mcpChallenge(s: Services, err: unknown): string {
  const parts = [`resource_metadata="${s.config.baseUrl}/.well-known/oauth-protected-resource/ai/mcp"`, `scope="${MCP_SCOPE}"`];
  if (err instanceof InsufficientScope) parts.unshift('error="insufficient_scope"');
  else if (err instanceof InvalidAccessToken) parts.unshift('error="invalid_token"');
  return `Bearer ${parts.join(', ')}`;
}
