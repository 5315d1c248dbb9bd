// What went wrong with a request, in the terms a form needs: a plain message, the stable code, and
// the server's 422 messages by field name.
import { waitText } from '../lib/wait-time.ts';

/** One entry of a 422 `HTTPValidationError` body. */
interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
}

/**
 * A failed API call. `fields` maps a body/query field name (dotted for nested ones) to its message;
 * `data` is the error's details when the server gives some (the regressions refusing a merge).
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly fields: Record<string, string> = {},
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const PLAIN: Record<number, string> = {
  400: 'The request was not understood.',
  401: 'You are not signed in, or your session has ended.',
  403: 'You are not allowed to do this.',
  404: 'Not found: it may have been deleted, or it belongs to someone else.',
  409: 'This conflicts with a change made meanwhile. Reload and try again.',
  413: 'That is too large.',
  422: 'Some fields need attention.',
  429: 'Too many attempts. Wait a moment and try again.',
};

/** Turns an error response into an ApiProblem (never throws; unknown bodies get a plain message). */
export function problemOf(status: number, body: unknown, retryAfter?: string | null): ApiProblem {
  const detail = typeof body === 'object' && body !== null ? (body as { detail?: unknown }).detail : undefined;
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  if (status === 422 && Array.isArray(detail)) {
    const fields: Record<string, string> = {};
    for (const issue of detail as ValidationIssue[]) {
      const name = issue.loc.filter((part, i) => !(i === 0 && ['body', 'query', 'path'].includes(String(part)))).join('.');
      fields[name || '_'] ??= issue.msg;
    }
    // A rule refusing the request as a whole (an unsupported file, a refused archive) has no field: its message is the message.
    const rule = typeof code === 'string' && code !== 'VALIDATION_FAILED' ? code : undefined;
    return new ApiProblem(status, (rule && fields['_']) || PLAIN[422]!, rule ?? 'VALIDATION_ERROR', fields, dataOf(body));
  }
  let message = typeof detail === 'string' && status < 500 ? detail : (PLAIN[status] ?? 'Something went wrong on the server. Try again in a moment.');
  if (status === 429 && retryAfter && /^\d+$/.test(retryAfter)) message = `${message.replace(/\.$/, '')}. Try again ${waitText(Number(retryAfter))}.`;
  return new ApiProblem(status, message, typeof code === 'string' ? code : undefined, {}, dataOf(body));
}

function dataOf(body: unknown): Record<string, unknown> {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
}

/** The problem for a request that never got an answer (offline, server down). */
export function networkProblem(): ApiProblem {
  return new ApiProblem(0, 'Could not reach Sextant: the server may be stopped, or this device is offline. Nothing was lost; try again in a moment.', 'NETWORK_ERROR');
}
