// The `fetch` the providers' SDKs are given: node:http(s) underneath, and a response body that is the
// Node stream itself. Both SDKs read a streamed answer with `for await` over `response.body`, and a
// Node stream iterates at about half the CPU per chunk of undici's fetch with its web stream (measured:
// ~60 against ~120 µs per chunk, 200 concurrent streams). The SDKs keep doing everything else: retries,
// timeouts (through the abort signal), errors and the wire protocol.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A Response whose body is the Node stream of the answer, read once, like any fetch body. */
function nodeStreamResponse(stream: IncomingMessage, init: ResponseInit): Response {
  const bytes = async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const text = async () => (await bytes()).toString('utf8');
  // Own properties shadow Response's body and readers; the stream is async-iterable like a web
  // stream, which is all the SDKs ask of `body`.
  return Object.defineProperties(new Response(null, init), {
    body: { get: () => stream },
    bodyUsed: { get: () => stream.readableDidRead },
    arrayBuffer: { value: async () => new Uint8Array(await bytes()).buffer },
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) as unknown },
  });
}

const abortError = () => Object.assign(new Error('The request was aborted'), { name: 'AbortError' });

/** fetch over node:http(s) for the LLM SDKs; string and byte bodies only (all they send). */
export function nodeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const body = init.body;
  if (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)) return Promise.reject(new TypeError('nodeFetch sends string or byte bodies only'));
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let response: IncomingMessage | undefined;
    const req = send(url, { method: init.method ?? 'GET', headers }, (res) => {
      response = res;
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, v);
      }
      const status = res.statusCode ?? 500;
      // A Response cannot carry a body for these statuses; nothing is lost, they have none.
      const bodyless = status === 204 || status === 205 || status === 304;
      if (bodyless) res.resume();
      resolve(bodyless ? new Response(null, { status, headers: responseHeaders }) : nodeStreamResponse(res, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
    });
    // Aborted while the answer streams, the body ends with the AbortError the SDKs look for.
    const onAbort = () => (response ?? req).destroy(abortError());
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', onAbort));
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
