// A browser for SSO tests: follows redirects across the gateway and the identity provider with one
// cookie jar per origin, and stops once back on the gateway outside /api/auth/.
import type { TestApp } from './app.ts';

export async function browse(t0: TestApp, startPath: string, stopWhen = (u: URL) => u.origin === t0.url && !u.pathname.startsWith('/api/auth/')) {
  const jars = new Map<string, Map<string, string>>();
  let url = new URL(startPath, t0.url);
  const seen: string[] = [];
  for (let i = 0; i < 20; i++) {
    const jar = jars.get(url.origin) ?? new Map<string, string>();
    jars.set(url.origin, jar);
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    seen.push(`${res.status} ${url.origin === t0.url ? 'gw' : 'idp'}${url.pathname}`);
    const location = res.headers.get('location');
    if (!location) return { res, url, jar: jars.get(t0.url)!, seen };
    url = new URL(location, url);
    if (stopWhen(url)) return { res, url, jar: jars.get(t0.url)!, seen };
  }
  throw new Error(`too many redirects: ${seen.join(' -> ')}`);
}
