// Serves the web client built into dist/web: hashed assets cached for good, public files and the
// app's page revalidated, and the page for every client route (SPA fallback). Paths of the API, MCP,
// OAuth, the API reference and the server-rendered pages are never answered with the app: an
// unknown one there stays a JSON 404.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Context, Next } from 'koa';
import { ensureCsrfCookie } from './csrf.ts';

/** Where `npm run build` puts the client: dist/web beside dist/gateway, from src or from dist alike. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/** Prefixes that belong to the server: an unmatched path under one is a 404, not a client route. */
const SERVER_PREFIXES = ['/api', '/ai', '/oauth', '/docs', '/openapi.json', '/.well-known', '/interaction', '/cli', '/assets'];
const isServerPath = (path: string) => SERVER_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.webmanifest', '.txt']);

/**
 * The app's own policy: scripts only from this origin (no inline script, no eval: charts run Vega
 * with its expression interpreter), inline styles for the chart library, images also from data: and
 * blob: URLs (chart exports), no framing, forms and connections to this origin only.
 */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

interface CachedFile {
  mtimeMs: number;
  raw: Buffer;
  gzip: Buffer | undefined;
}

/** The middleware that serves the client from `dir` (GET and HEAD only; everything else passes). */
export function webApp(dir: string, secure: boolean) {
  const cache = new Map<string, CachedFile>();
  const load = async (file: string): Promise<CachedFile | undefined> => {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit;
    const raw = await readFile(file);
    const entry = { mtimeMs: info.mtimeMs, raw, gzip: COMPRESSIBLE.has(extname(file)) && raw.length > 512 ? gzipSync(raw) : undefined };
    cache.set(file, entry);
    return entry;
  };
  const send = (ctx: Context, file: string, entry: CachedFile, cacheControl: string) => {
    ctx.status = 200;
    ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', cacheControl);
    ctx.vary('Accept-Encoding');
    const gzip = entry.gzip && ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? entry.gzip : entry.raw;
  };
  return async function webAppMiddleware(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = safePath(ctx.path);
    if (path === undefined) return next();
    if (path.startsWith('/assets/')) {
      const entry = await load(join(dir, path));
      return entry ? send(ctx, path, entry, 'public, max-age=31536000, immutable') : next();
    }
    if (isServerPath(path)) return next();
    if (extname(path) !== '') {
      // A public file (theme.css, favicon.svg): stable name, so the browser revalidates it. The icon
      // may be a day old: Chromium asks for it again on every change of address (a new chat's first
      // answer), and revalidated it cost a request to the gateway while that answer ran.
      const entry = await load(join(dir, path));
      if (entry) return send(ctx, path, entry, path === '/favicon.svg' ? 'public, max-age=86400' : 'no-cache');
      // Public files sit at the top; a deeper path with a dot is a page's (a knowledge item `main.orders`).
      if (path.lastIndexOf('/') === 0) return next();
    }
    const page = await load(join(dir, 'index.html'));
    if (!page) {
      // `npm run dev` without a build yet: say so instead of a bare 404.
      ctx.status = 503;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = '<!doctype html><title>Sextant</title><p>The web client is not built yet: run <code>npm run build:web</code> and reload. The API is at <a href="/docs">/docs</a>.</p>';
      return;
    }
    send(ctx, 'index.html', page, 'no-store');
    ctx.set('Content-Security-Policy', APP_CSP);
    ensureCsrfCookie(ctx, secure);
  };
}

/** The request path if it is a plain one inside the folder (no `..`, no NUL, no backslash). */
function safePath(path: string): string | undefined {
  if (path.includes('\0') || path.includes('\\')) return undefined;
  const clean = normalize(path);
  if (!clean.startsWith('/') || clean.split(sep).includes('..')) return undefined;
  return clean;
}
