// The remote MCP endpoint: credential check, then a stateless Streamable HTTP transport per request
// (a shared server crashes under Koa: modelcontextprotocol/typescript-sdk#912).
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { Forbidden } from '../../errors.ts';
import { createMcpServer } from '../../mcp/create-mcp-server.ts';
import { bodyParser } from '../body.ts';
import { writeError } from '../error-handler.ts';
import type { Services } from '../services.ts';
import { mcpCaller, mcpChallenge, type McpCaller } from './mcp-auth.ts';

export { McpAccessRefused } from './mcp-auth.ts';

export const MCP_PATH = '/ai/mcp';

/** Mounts `/ai/mcp` ahead of the REST router. */
export function mountMcp(app: Koa, s: Services): void {
  const parse = bodyParser('json', { jsonBytes: 4 * 1024 * 1024, multipartFileBytes: 0 });
  app.use(async function mcpEndpoint(ctx: Context, next: Next) {
    if (ctx.path !== MCP_PATH) return next();
    if (!originAllowed(s, ctx.get('Origin'))) {
      // DNS-rebinding defence the MCP transport rules require: a browser origin we don't know gets 403.
      writeError(ctx, new Forbidden('Origin not allowed', 'ORIGIN_NOT_ALLOWED'));
      return;
    }
    let caller: McpCaller;
    try {
      caller = await mcpCaller(s, ctx);
    } catch (err) {
      writeError(ctx, err);
      if (ctx.status === 401 || ctx.status === 403) ctx.set('WWW-Authenticate', mcpChallenge(s, err));
      return;
    }
    const { principal } = caller;
    ctx.state.principal = principal;
    if (ctx.method !== 'POST') {
      // Stateless server: no standalone GET stream and no sessions to DELETE.
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = { detail: 'Method Not Allowed' };
      return;
    }
    await parse(ctx);
    // Tool calls log with the request id, the user, the organization and how they connected.
    const log = (ctx.state.log ?? s.log).child({ user_id: principal.userId, org_id: principal.orgId, credential: principal.credential, client_id: caller.clientId });
    const server = createMcpServer({ principal, version: s.config.version, ports: s.mcp, log });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const auth: AuthInfo = { token: caller.token, clientId: caller.clientId, scopes: principal.scopes, resource: new URL(`${s.config.baseUrl}${MCP_PATH}`) };
    if (caller.expiresAt !== undefined) auth.expiresAt = Math.floor(caller.expiresAt / 1000);
    (ctx.req as typeof ctx.req & { auth?: AuthInfo }).auth = auth;
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

/** No Origin (non-browser clients), the service's own origin, or a configured CORS origin. */
function originAllowed(s: Services, origin: string): boolean {
  return !origin || origin === new URL(s.config.baseUrl).origin || s.config.corsOrigins.includes(origin);
}
