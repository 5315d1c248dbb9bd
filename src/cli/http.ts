// The CLI's only way to the service: HTTP with the token and the active environment on every request.
import { CliError, EXIT } from './errors.ts';
import { issueInWords, notFoundHint } from './problem-words.ts';

export interface ClientOptions {
  server: string;
  token: string | undefined;
  environment: string | undefined;
}

export type Query = Record<string, string | number | boolean | undefined>;

export class ApiClient {
  constructor(readonly opts: ClientOptions) {}

  url(path: string, query: Query = {}): string {
    const u = new URL(this.opts.server + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      accept: 'application/json',
      ...(this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {}),
      ...(this.opts.environment ? { 'x-service-environment': this.opts.environment } : {}),
      ...extra,
    };
  }

  /** Sends a request and returns the raw response; network failures become a CliError. */
  async raw(method: string, path: string, { query, body, headers }: { query?: Query; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    try {
      return await fetch(this.url(path, query), {
        method,
        headers: this.headers({ ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new CliError(`Cannot reach ${this.opts.server} (${(err as Error).cause ?? (err as Error).message}). Check --server or SEXTANT_SERVER.`);
    }
  }

  /** Sends a request and returns its JSON body, turning error statuses into a CliError that says what to do. */
  async json<T>(method: string, path: string, opts: { query?: Query; body?: unknown } = {}): Promise<T> {
    const res = await this.raw(method, path, opts);
    if (!res.ok) throw await apiError(res);
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }
}

/** A CliError for a failed response, with the server's detail in words and the next step. */
export async function apiError(res: Response): Promise<CliError> {
  const body = (await res.json().catch(() => ({}))) as { detail?: unknown; code?: string };
  const detail = Array.isArray(body.detail) ? body.detail.map(issueInWords).join('; ') : String(body.detail ?? res.statusText);
  const hint: Record<number, string> = {
    401: ' Run `sextant login` (or set SEXTANT_TOKEN).',
    403: ' Your role does not allow this; ask an admin.',
    404: notFoundHint(new URL(res.url || 'http://x/').pathname),
    429: ` Try again in ${res.headers.get('retry-after') ?? 'a few'} seconds.`,
  };
  // A request the schema refused needs no code: the sentence says it all.
  const code = body.code && body.code !== 'VALIDATION_FAILED' ? `, ${body.code}` : '';
  return new CliError(`${detail.replace(/\.$/, '')} (HTTP ${res.status}${code}).${(body.code && CODE_HINTS[body.code]) ?? hint[res.status] ?? ''}`, res.status === 401 ? EXIT.signedOut : EXIT.error);
}

/** Next steps for refusals whose status alone would point the wrong way (a 403 that no role lifts). */
const CODE_HINTS: Record<string, string> = {
  PRODUCTION_THROUGH_ENVIRONMENTS:
    ' Make the change in an environment: `sextant env create <name>`, `sextant env use <id>` (or --env <id>), run the command again, then `sextant env merge`.',
};
