// JSON bodies read without koa-body: a JSON media type (`application/json`, or another koa-body reads
// as JSON), plain or compressed (gzip, deflate, br), with a Content-Length or chunked, on a method
// koa-body parses. Every question (POST /api/agentic/stream) is one: through koa-body, co-body,
// inflation, raw-body and type-is it cost four media-type tests, a decoder and a dozen closures and
// listeners for a body of a hundred bytes. And co-body decodes every body as UTF-8, whatever its
// charset, replacing what is not: `café` sent in Latin-1 was saved as `caf\uFFFD` without a word.
// Here the body is decoded in its charset (UTF-8 unless it names another that the WHATWG Encoding
// Standard knows; one it does not is refused as an unsupported content type), and bytes that are not
// text in it are a decode error. koa-body reads the rest (forms and multipart). The answers are
// koa-body's: a body over the limit (after inflating, so a small compressed body cannot become a large
// one) is a 413, one not matching its length or not JSON a decode error, and a `__proto__` key is
// refused as co-body refuses it (with @hapi/bourne).
import { isUtf8 } from 'node:buffer';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Context } from 'koa';

/** The media types koa-body reads as JSON. */
const JSON_TYPES = new Set(['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/scim+json']);
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const INFLATE = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress } as const;
// @hapi/bourne's test for a key that may be `__proto__` in any spelling JSON allows.
const SUSPECT = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/** How a body this path takes is read: its declared length, if any, how it is compressed, and its charset (undefined: one the Encoding Standard does not know). */
export interface JsonBodyPlan {
  length: number | undefined;
  inflate: keyof typeof INFLATE | undefined;
  charset: string | undefined;
}

/** A body too large to read: koa-body's 413. */
class BodyTooLarge extends Error {
  readonly status = 413;
}

/** A charset no decoder knows: refused as koa-body refuses a type it does not read. */
class UnknownCharset extends Error {
  readonly status = 415;
}

/** The charset's name if the Encoding Standard knows it. */
function knownCharset(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** How this path reads the request's body, or undefined when koa-body reads it. */
export function jsonBodyPlan(ctx: Context): JsonBodyPlan | undefined {
  if (!PARSED_METHODS.has(ctx.method)) return undefined;
  const headers = ctx.req.headers;
  // Without a length or chunks the request has no body at all: koa-body leaves the body unset, as a
  // route whose body is optional expects (`curl -X POST -H 'content-type: application/json'`).
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return undefined;
  const [type, ...params] = (headers['content-type'] ?? '').toLowerCase().split(';').map((p) => p.trim());
  if (!JSON_TYPES.has(type!)) return undefined;
  const label = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/^"(.*)"$/, '$1') ?? 'utf-8';
  const encoding = (headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  if (encoding !== 'identity' && !(encoding in INFLATE)) return undefined;
  const declared = headers['content-length'];
  const length = declared === undefined ? undefined : Number(declared);
  if (length !== undefined && !(Number.isSafeInteger(length) && length >= 0)) return undefined;
  const charset = label === 'utf-8' ? label : knownCharset(label);
  return { length, inflate: encoding === 'identity' ? undefined : (encoding as keyof typeof INFLATE), charset };
}

/** Reads the JSON body as planned; rejects with a 413 past `limit` bytes, else with a decode error for the caller. */
export function readJsonBody(ctx: Context, plan: JsonBodyPlan, limit: number): Promise<unknown> {
  const req = ctx.req;
  const refused = plan.charset === undefined ? new UnknownCharset('unsupported charset') : plan.inflate === undefined && (plan.length ?? 0) > limit ? new BodyTooLarge('request entity too large') : undefined;
  if (refused) {
    req.resume();
    return Promise.reject(refused);
  }
  const charset = plan.charset!;
  const inflater: Transform | undefined = plan.inflate ? req.pipe(INFLATE[plan.inflate]()) : undefined;
  const source = inflater ?? req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let sent = 0;
    let received = 0;
    const done = (err: Error | undefined, value?: unknown) => {
      req.off('data', onSent).off('error', done).off('close', onClose);
      source.off('data', onData).off('end', onEnd).off('error', done);
      if (err) {
        // What is left of a body that does not fit is drained, not kept.
        if (inflater) {
          req.unpipe(inflater);
          // Destroyed, it may still report what it was fed last: nobody listens any more.
          inflater.on('error', () => undefined).destroy();
        }
        req.resume();
        reject(err);
      } else resolve(value);
    };
    const onSent = (chunk: Buffer) => {
      sent += chunk.length;
      if (plan.length !== undefined && sent > plan.length) done(new Error('request size did not match content length'));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return done(new BodyTooLarge('request entity too large'));
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (plan.length !== undefined && sent !== plan.length) return done(new Error('request size did not match content length'));
      try {
        done(undefined, parse(decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received), charset)));
      } catch (err) {
        done(err as Error);
      }
    };
    // A request closed before its last byte was aborted; once complete, its inflated end may still be on its way.
    const onClose = () => {
      if (!req.complete) done(new Error('request aborted'));
    };
    req.on('data', onSent).on('error', done).on('close', onClose);
    source.on('data', onData).on('end', onEnd).on('error', done);
  });
}

/** The body's text; throws when its bytes are not text in the charset. */
function decode(bytes: Buffer, charset: string): string {
  if (charset !== 'utf-8') return new TextDecoder(charset, { fatal: true }).decode(bytes);
  if (!isUtf8(bytes)) throw new Error('the body is not UTF-8');
  return bytes.toString('utf8');
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
