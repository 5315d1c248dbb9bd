// The one typed API client: openapi-fetch over the types generated from /openapi.json. Every
// request carries the CSRF header and the active environment's header (if any); a 401 on a
// signed-in call tells the session to send the person to sign in (and back). `call` turns an error answer into an ApiProblem.
import createClient, { type Middleware } from 'openapi-fetch';
import { csrfHeaders } from './csrf.ts';
import { environmentHeaders } from './environment.ts';
import type { paths } from './openapi';
import { networkProblem, problemOf } from './problem.ts';

export type { paths } from './openapi';
export type { components } from './openapi';

/** Listeners told when a request answers 401 (the session ended or was never there). */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}
/** Tells the listeners that a request answered 401 (for transports other than fetch: uploads with progress). */
export function signalUnauthorized(): void {
  for (const l of unauthorizedListeners) l();
}
/** Calls that answer 401 as part of their job (a wrong password), not because a session ended. */
const SIGN_IN_PATHS = /^\/api\/auth\/(token|magic_link|mfa\/recovery|register|verify|reset_password|resend_verification_mail|org_from_email)/;

const session: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(csrfHeaders())) request.headers.set(name, value);
    // A request naming its environment itself (a comparison with production) keeps it.
    for (const [name, value] of Object.entries(environmentHeaders())) if (!request.headers.has(name)) request.headers.set(name, value);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !SIGN_IN_PATHS.test(new URL(request.url).pathname)) for (const l of unauthorizedListeners) l();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(session);

/** Awaits an openapi-fetch call: the data, or an ApiProblem thrown (network failures included). */
export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await request;
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw networkProblem();
  }
  if (!result.response.ok) throw problemOf(result.response.status, result.error, result.response.headers.get('Retry-After'));
  return result.data as T;
}

/** fetch for what openapi-fetch does not cover (streams, uploads), with the same CSRF header and 401 signal. */
export async function rawFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(csrfHeaders())) headers.set(name, value);
  for (const [name, value] of Object.entries(environmentHeaders())) if (!headers.has(name)) headers.set(name, value);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw networkProblem();
  }
  if (response.status === 401) for (const l of unauthorizedListeners) l();
  return response;
}
