// Where to go after signing in: only a path of this origin, never another site (mirrors the
// server's safeNextPath for the links it builds).

/** `next` when it is a same-origin path, else '/'. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || [...next].some((c) => c.charCodeAt(0) < 32)) return '/';
  return next;
}

/** Paths served by the gateway itself (consent, CLI approval...): reached with a full page load. */
export function isServerPath(path: string): boolean {
  return /^\/(api|oauth|interaction|cli|docs|ai)(\/|$|\?)/.test(path);
}

/** The sign-in page that returns to `next`. */
export function signInUrl(next: string, expired = false): string {
  const params = new URLSearchParams();
  if (next && next !== '/') params.set('next', next);
  if (expired) params.set('expired', '1');
  const query = params.toString();
  return query ? `/login?${query}` : '/login';
}
