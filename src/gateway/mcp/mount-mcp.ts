// The remote MCP endpoint: credential check, then a stateless Streamable HTTP transport per request
// (a shared server crashes under Koa: modelcontextprotocol/typescript-sdk#912).
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { authenticateApiToken, type Principal } from '../../auth/index.ts';
import { Forbidden, Unauthorized } from '../../errors.ts';
import { createMcpServer } from '../../mcp/create-mcp-server.ts';
import { bodyParser } from '../body.ts';
import type { Services } from '../services.ts';

export const MCP_PATH = '/ai/mcp';

/** Credential kinds the MCP endpoint accepts. */
const MCP_KINDS: Principal['credential'][] = ['mcp_token', 'oauth'];

export class McpAccessRefused extends Forbidden {
  constructor() {
    super('Token does not have required MCP access', 'MCP_ACCESS_REQUIRED');
  }
}

/** Resolves the MCP caller: an MCP token in `X-API-KEY`; never a token in the URL. */
export function mcpPrincipal(s: Services, ctx: Context): Principal {
  if (['api_key', 'api_token', 'token', 'access_token', 'key'].some((k) => ctx.query[k] !== undefined)) {
    throw new Unauthorized('Tokens in the URL are not supported; send the MCP token in the X-API-KEY header', 'TOKEN_IN_URL');
  }
  const value = ctx.get('X-API-KEY');
  if (!value) throw new Unauthorized('Not authenticated', 'NOT_AUTHENTICATED');
  const principal = authenticateApiToken({ db: s.store.db, clock: s.clock, jwtKey: s.config.secrets.jwtKey }, value);
  if (!MCP_KINDS.includes(principal.credential)) throw new McpAccessRefused();
  return principal;
}

/** Mounts `/ai/mcp` ahead of the REST router. */
export function mountMcp(app: Koa, s: Services): void {
  const parse = bodyParser('json', { jsonBytes: 4 * 1024 * 1024, multipartFileBytes: 0 });
  app.use(async function mcpEndpoint(ctx: Context, next: Next) {
    if (ctx.path !== MCP_PATH) return next();
    const principal = mcpPrincipal(s, ctx);
    ctx.state.principal = principal;
    if (ctx.method !== 'POST') {
      // Stateless server: no standalone GET stream and no sessions to DELETE.
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = { detail: 'Method Not Allowed' };
      return;
    }
    await parse(ctx);
    const server = createMcpServer({ principal, version: s.config.version });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
    } catch (err) {
      s.log.error({ err }, 'mcp request failed');
      if (!ctx.res.headersSent) {
        ctx.res.writeHead(500, { 'Content-Type': 'application/json' });
        ctx.res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  });
}
