// The double-submit CSRF token: the gateway sets the readable `sextant_csrf` cookie when it serves
// the app, and checks that every state-changing request made with the session cookie repeats it.

export const CSRF_HEADER = 'X-CSRF-Token';

/** The current token, read fresh each time (another tab may have received a new one). */
export function csrfToken(): string {
  const match = /(?:^|;\s*)sextant_csrf=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : '';
}

/** Headers for a state-changing request made by the app. */
export function csrfHeaders(): Record<string, string> {
  return { [CSRF_HEADER]: csrfToken() };
}
