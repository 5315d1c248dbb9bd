// The remote MCP endpoint: our credential check, then the SDK v2 handler, which serves the current
// revision (2026-07-28, per-request envelope) and 2025-era clients statelessly, with a fresh server per
// request built from the caller the middleware resolved. The SDK and the tools load with the first
// MCP request: a gateway nobody connects an MCP client to does not carry them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { Forbidden } from '../../errors.ts';
import type { Principal } from '../../auth/index.ts';
import type { Logger } from '../../log.ts';
import { clientSignal } from '../client-signal.ts';
import { writeError } from '../error-handler.ts';
import type { Services } from '../../compose/services.ts';
import { mcpCaller, mcpChallenge, type McpCaller } from './mcp-auth.ts';
import { readJsonRpcBody, type JsonRpcRefusal } from './read-json-rpc-body.ts';

export { McpAccessRefused } from './mcp-auth.ts';

export const MCP_PATH = '/ai/mcp';
/** The SDK's own default cap on a request body. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What the factory needs about the caller, keyed by the request's own AuthInfo (passed through by the SDK). */
interface Caller {
  principal: Principal;
  log: Logger;
  /** The HTTP exchange closed early (the client went away). */
  closed: AbortSignal;
}

type Serve = (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>;

/** The SDK's handler, serving each request with a fresh server for the caller found in `callers`. */
async function createServe(s: Services, callers: WeakMap<AuthInfo, Caller>): Promise<Serve> {
  const [{ toNodeHandler }, { createMcpHandler }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/node'),
    import('@modelcontextprotocol/server'),
    import('../../mcp/create-mcp-server.ts'),
  ]);
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const caller = authInfo && callers.get(authInfo);
      // The middleware below always sets authInfo; a request without it never reaches the SDK.
      if (!caller) throw new Error('MCP request without a resolved caller');
      return createMcpServer({ principal: caller.principal, version: s.config.version, ports: s.mcp, log: caller.log, closed: caller.closed });
    },
    { legacy: 'stateless', onerror: (err) => s.log.warn({ err }, 'mcp request refused or failed') },
  );
  // Graceful shutdown ends in-flight 2026-07-28 exchanges (a `wait` may hold one for 30 s), like event streams.
  s.shutdown.addEventListener('abort', () => void handler.close(), { once: true });
  return toNodeHandler(handler, { onerror: (err) => s.log.error({ err }, 'mcp request failed') });
}

/** Mounts `/ai/mcp` ahead of the REST router. */
export function mountMcp(app: Koa, s: Services): void {
  const callers = new WeakMap<AuthInfo, Caller>();
  let serve: Promise<Serve> | undefined;
  // Other paths pass through a plain function: no promise of this middleware's own on every request.
  app.use(function mcpGate(ctx: Context, next: Next) {
    return ctx.path === MCP_PATH ? mcpEndpoint(ctx) : next();
  });
  async function mcpEndpoint(ctx: Context): Promise<void> {
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
      ctx.set('Allow', 'POST');
      jsonRpcError(ctx, { status: 405, code: -32000, message: 'Method Not Allowed: this endpoint takes POST only' });
      return;
    }
    const body = await readJsonRpcBody(ctx.req, { isJson: mediaType(ctx.get('Content-Type')) === 'application/json', maxBytes: MAX_BODY_BYTES });
    if (!body.ok) {
      jsonRpcError(ctx, body);
      return;
    }
    // Tool calls log with the request id, the user, the organization and how they connected.
    const log = (ctx.state.log ?? s.log).child({ user_id: principal.userId, org_id: principal.orgId, credential: principal.credential, client_id: caller.clientId });
    const auth: AuthInfo = { token: caller.token, clientId: caller.clientId, scopes: principal.scopes, resource: new URL(`${s.config.baseUrl}${MCP_PATH}`) };
    if (caller.expiresAt !== undefined) auth.expiresAt = Math.floor(caller.expiresAt / 1000);
    callers.set(auth, { principal, log, closed: clientSignal(ctx) });
    (ctx.req as typeof ctx.req & { auth?: AuthInfo }).auth = auth;
    // From here the SDK writes the response (JSON or a request-scoped SSE stream) to ctx.res itself.
    const handle = await (serve ??= createServe(s, callers));
    ctx.respond = false;
    await handle(ctx.req, ctx.res, body.value);
  }
}

/** Past the credential check this endpoint speaks JSON-RPC, also when it refuses (never the REST error shape). */
function jsonRpcError(ctx: Context, e: JsonRpcRefusal): void {
  ctx.status = e.status;
  ctx.body = { jsonrpc: '2.0', error: { code: e.code, message: e.message }, id: null };
}

/** `application/json` of `application/json; charset=utf-8`: the media type without parameters, lower case. */
function mediaType(header: string): string {
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}

/** No Origin (non-browser clients), the service's own origin, or a configured CORS origin. */
function originAllowed(s: Services, origin: string): boolean {
  return !origin || origin === new URL(s.config.baseUrl).origin || s.config.corsOrigins.includes(origin);
}
