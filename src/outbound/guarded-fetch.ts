// A fetch over the guarded sender, for code that speaks fetch (the SSO client, Octokit). It follows no
// redirect: a 3xx comes back as it is (`redirect: 'error'` turns it into a failure), so a redirect can
// never lead to an address the guard would refuse, nor carry credentials to another host.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { OutboundFailed, type Send } from './send-request.ts';

/** The fetch signature the guarded client offers. */
export type OutboundFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

async function bodyBytes(body: RequestInit['body'] | undefined): Promise<Buffer | undefined> {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof Blob) return Buffer.from(await body.arrayBuffer());
  throw new TypeError('the outbound client sends string, form or byte bodies only');
}

function toResponse(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 502;
  // A Response cannot carry a body for these statuses (they have none).
  if (method === 'HEAD' || status === 204 || status === 205 || status === 304) {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage ?? '', headers });
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage ?? '', headers });
}

/** fetch through `send`; answers whatever the server answered, refusals and network failures throw `OutboundFailed`. */
export function guardedFetch(send: Send): OutboundFetch {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : input);
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    new Headers(init.headers ?? request?.headers).forEach((value, name) => (headers[name] = value));
    const body = await bodyBytes(init.body ?? (request?.body ? await request.arrayBuffer() : undefined));
    if (body && !headers['content-type'] && init.body instanceof URLSearchParams) headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    const res = await send(url, { method, headers, body, signal: init.signal ?? request?.signal ?? undefined });
    const redirected = (res.statusCode ?? 0) >= 300 && (res.statusCode ?? 0) < 400;
    if (redirected && (init.redirect ?? request?.redirect) === 'error') {
      res.destroy();
      throw new OutboundFailed('unreachable', url.origin, new Error(`redirect (HTTP ${res.statusCode}) not followed`));
    }
    return toResponse(res, method);
  };
}
