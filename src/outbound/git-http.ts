// isomorphic-git's HTTP client over the guarded sender, for pushes to an organization's git remote.
// Like the fetch, it follows no redirect: isomorphic-git reports a 3xx as the HTTP error it is.
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import type { Send } from './send-request.ts';

/** A push sends the whole pack in one request: it gets longer than an API call. */
const GIT_TIMEOUT_MS = 10 * 60_000;

async function collect(body: GitHttpRequest['body']): Promise<Buffer | undefined> {
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The `http` argument of isomorphic-git's network commands, through `send`. */
export function guardedGitHttp(send: Send): HttpClient {
  return {
    async request({ url, method = 'GET', headers = {}, body }: GitHttpRequest): Promise<GitHttpResponse> {
      const res = await send(new URL(url), { method, headers, body: await collect(body), timeoutMs: GIT_TIMEOUT_MS });
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
      return { url, method, statusCode: res.statusCode ?? 502, statusMessage: res.statusMessage ?? '', headers: flat, body: res[Symbol.asyncIterator]() as AsyncIterableIterator<Uint8Array> };
    },
  };
}
