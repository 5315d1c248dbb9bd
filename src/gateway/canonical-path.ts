// One spelling per path. `%61pi` and `api` name the same resource (RFC 3986 section 6.2.2.2: unreserved
// characters are equivalent to their percent-encoding), so such escapes are decoded before anything
// reads the path: the router (case-sensitive and strict, see create-gateway.ts), the CSRF check, the
// MCP and OAuth mounts, the metrics and trace labels, the access log and the web client all see the
// same path, and none can be passed by a spelling another one reads differently.
import type { Context, Next } from 'koa';

const UNRESERVED_ESCAPE = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DdEe]|5[Ff]|7[Ee])/g;

/** The path with its percent-encoded unreserved characters (letters, digits, `-._~`) decoded. */
export function canonicalPath(path: string): string {
  return path.includes('%') ? path.replace(UNRESERVED_ESCAPE, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16))) : path;
}

/** Rewrites the request's path to its canonical spelling (the query string is kept). */
export function canonicalizePath(ctx: Context, next: Next): Promise<void> {
  const path = ctx.path;
  if (path.includes('%')) {
    const canonical = canonicalPath(path);
    if (canonical !== path) ctx.path = canonical;
  }
  return next();
}
