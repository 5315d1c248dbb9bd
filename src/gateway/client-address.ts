// The client's address and scheme as our own proxies saw them. Every reader of the client's address
// (sign-in and mail throttles, OAuth registration quota, audit, logs) reads `ctx.ip`, which this sets
// once per request: never the leftmost `X-Forwarded-For` entry, which the client writes itself.
import type { Context, Next } from 'koa';
import { proxyTrust, type TrustedProxies } from '../security/index.ts';

/** Sets `ctx.ip` to a valid address (or '') and `ctx.state.forwardedHttps` when a trusted proxy says https. */
export function clientAddress(trusted: TrustedProxies | undefined) {
  const trust = proxyTrust(trusted);
  return function clientAddressMiddleware(ctx: Context, next: Next): Promise<void> {
    const peer = ctx.req.socket.remoteAddress;
    // Header names in lower case: see securityHeaders in middleware.ts.
    ctx.request.ip = trust.clientAddress(peer, trusted ? ctx.get('x-forwarded-for') : '') ?? '';
    if (trusted && trust.trustsPeer(peer)) {
      // The rightmost value is the one our proxy wrote; one appending to a client's own header keeps that on the left.
      const proto = ctx.get('x-forwarded-proto');
      ctx.state.forwardedHttps = proto.slice(proto.lastIndexOf(',') + 1).trim().toLowerCase() === 'https';
    }
    return next();
  };
}

/** Whether the request reached us over https: the configured base URL says so, or a trusted proxy did. */
export function arrivedOverHttps(ctx: Context, baseUrlHttps: boolean): boolean {
  return baseUrlHttps || ctx.state.forwardedHttps === true;
}
