/** A same-origin path to go to after sign-in; anything else (absolute URLs, `//host`, backslashes) becomes `/`. */
export function safeNextPath(next: string | undefined | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\') || [...next].some((c) => c.charCodeAt(0) < 0x20)) return '/';
  try {
    const url = new URL(next, 'http://same.invalid');
    if (url.origin !== 'http://same.invalid') return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}
