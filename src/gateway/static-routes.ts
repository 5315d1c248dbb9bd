// Routes without path parameters (most of them) answered from a table keyed by method and path. The
// router tests every route's pattern in turn and composes a middleware chain for each request (about
// a tenth of a small request's CPU in a profile); a Map lookup gives the same handler. A path the
// router would give to another route first (an earlier pattern that also matches) stays with the
// router, as does everything with parameters, so the answer is the router's in every case. Which of
// the two answers a path is asked of the router when the path is first requested: asking it for all
// ~300 static routes at once (every pattern tested for each) took ~20 ms of every start (issue 38).
import type Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';

type Handler = (ctx: Context) => Promise<void>;

/** Middleware serving the static routes of `routes`; others fall through to the router after it. */
export function staticRoutes(router: Router, routes: { method: string; path: string; handler: Handler }[]): Middleware {
  // The first route registered for each method and path, and once asked, whether the router gives it the path.
  const candidates = new Map<string, { method: string; path: string; handler: Handler }>();
  for (const r of routes) {
    if (r.path.includes(':') || r.path.includes('(') || r.path.includes('*')) continue;
    if (!candidates.has(`${r.method} ${r.path}`)) candidates.set(`${r.method} ${r.path}`, r);
  }
  const table = new Map<string, Handler | null>();
  const served = (r: { method: string; path: string; handler: Handler }) => (router.match(r.path, r.method).pathAndMethod[0]?.path === r.path ? r.handler : null);
  return function staticRoute(ctx: Context, next: Next): Promise<void> {
    // HEAD is answered as GET, as the router does (Koa sends no body).
    const key = `${ctx.method === 'HEAD' ? 'GET' : ctx.method} ${ctx.path}`;
    let handler = table.get(key);
    const candidate = handler === undefined ? candidates.get(key) : undefined;
    if (candidate) table.set(key, (handler = served(candidate)));
    if (!handler) return next();
    ctx.params = {};
    return handler(ctx);
  };
}
