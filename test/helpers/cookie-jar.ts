// A tiny browser stand-in for page tests: plain fetch that keeps cookies and does not follow redirects.

export interface Browser {
  /** fetch relative to the base URL, sending and storing cookies; redirects are returned, not followed. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Submits an HTML form as application/x-www-form-urlencoded. */
  submit(path: string, fields: Record<string, string>): Promise<Response>;
  setCookie(name: string, value: string): void;
  cookies: Map<string, string>;
}

/** A cookie-keeping client for the server at `baseUrl` (cookie attributes beyond Max-Age=0 are ignored). */
export function browser(baseUrl: string): Browser {
  const cookies = new Map<string, string>();
  const b: Browser = {
    cookies,
    setCookie: (name, value) => void cookies.set(name, value),
    async fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
      const res = await fetch(baseUrl + path, { ...init, headers, redirect: 'manual' });
      for (const line of res.headers.getSetCookie()) {
        const [pair, ...attrs] = line.split(';');
        const eq = pair!.indexOf('=');
        const name = pair!.slice(0, eq).trim();
        const value = pair!.slice(eq + 1).trim();
        if (value === '' || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    },
    submit(path, fields) {
      return b.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    },
  };
  return b;
}

/** Pulls the value of a named hidden input out of an HTML page. */
export function formField(html: string, name: string): string | undefined {
  const m = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  const named: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>' };
  return m?.[1]?.replace(/&(?:#(\d+)|(amp|quot|lt|gt));/g, (_, n: string | undefined, name: string | undefined) => (n ? String.fromCharCode(Number(n)) : named[name!]!));
}
