// The common JSON body read without koa-body: `application/json` (or with `charset=utf-8`), no
// content encoding, a Content-Length within the limit, on a method koa-body parses. Every question
// (POST /api/agentic/stream) is one: through koa-body, co-body, inflation, raw-body and type-is it
// cost four media-type tests, a decoder and a dozen closures and listeners for a body of a hundred
// bytes. Anything else (another type, a compressed or chunked body, one over the limit) goes to
// koa-body as before, so its answers (413, 415, the decode error) stay as they were; this path
// answers the same for what it takes: a body not matching its length or not JSON fails as a decode
// error, a `__proto__` key is refused as co-body refuses it (with @hapi/bourne). Bytes that are not
// UTF-8 fail as a decode error too: decoded, they would become U+FFFD and be saved as the writer's
// text without a word (koa-body's decoder, for the rare body that takes that path, still replaces).
import { isUtf8 } from 'node:buffer';
import type { Context } from 'koa';

const PLAIN_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);
// @hapi/bourne's test for a key that may be `__proto__` in any spelling JSON allows.
const SUSPECT = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/** The body's length when this path takes the request, else undefined (koa-body reads it). */
export function plainJsonLength(ctx: Context, limit: number): number | undefined {
  const headers = ctx.req.headers;
  const type = headers['content-type'];
  if (type === undefined || !PLAIN_TYPES.has(type.toLowerCase())) return undefined;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return undefined;
  if (!PARSED_METHODS.has(ctx.method)) return undefined;
  const length = Number(headers['content-length'] ?? NaN);
  return Number.isSafeInteger(length) && length >= 0 && length <= limit ? length : undefined;
}

/** Reads `length` bytes of JSON; rejects (a decode error for the caller) when the body is not that or not JSON. */
export function readPlainJson(ctx: Context, length: number): Promise<unknown> {
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const done = (err: Error | undefined, value?: unknown) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) {
        // What is left of a body that does not fit is drained, not kept.
        req.resume();
        reject(err);
      } else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > length) return done(new Error('request size did not match content length'));
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (received !== length) return done(new Error('request size did not match content length'));
      try {
        const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
        if (!isUtf8(bytes)) return done(new Error('the body is not UTF-8'));
        done(undefined, parse(bytes.toString('utf8')));
      } catch (err) {
        done(err as Error);
      }
    };
    const onError = (err: Error) => done(err);
    const onClose = () => done(new Error('request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** co-body's non-strict parse: an empty body is '', a byte-order mark is dropped (as its decoder drops it). */
function parse(text: string): unknown {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (json === '') return json;
  const value = JSON.parse(json) as unknown;
  if (value !== null && typeof value === 'object' && SUSPECT.test(json)) refuseProtoKeys(value);
  return value;
}

/** Throws when any object in `value` has an own `__proto__` key (bourne's scan, protoAction 'error'). */
function refuseProtoKeys(value: object): void {
  let next: object[] = [value];
  while (next.length > 0) {
    const nodes = next;
    next = [];
    for (const node of nodes) {
      if (Object.prototype.hasOwnProperty.call(node, '__proto__')) throw new SyntaxError('Object contains forbidden prototype property');
      for (const child of Object.values(node)) if (child !== null && typeof child === 'object') next.push(child as object);
    }
  }
}
