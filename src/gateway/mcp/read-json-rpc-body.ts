// The body of an MCP request, read and parsed once here: size-capped, UTF-8, nesting checked on the
// text before JSON.parse, so the SDK gets a value it can serialize again (JSON.stringify recurses,
// and a 10,000-level body overflowed the stack into a 500). Every failure is a JSON-RPC error.
import type { IncomingMessage } from 'node:http';

/** Deeper than any MCP message needs (they nest a handful of levels); arguments included. */
export const MAX_JSON_DEPTH = 64;

/** A JSON-RPC error to answer with `id: null`, and its HTTP status. */
export interface JsonRpcRefusal {
  status: number;
  code: number;
  message: string;
}

export type JsonRpcBody = { ok: true; value: unknown } | ({ ok: false } & JsonRpcRefusal);

const refuse = (status: number, code: number, message: string): JsonRpcBody => ({ ok: false, status, code, message });
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
// The MCP SDK's code for transport-level refusals (media type, size).
const TRANSPORT_ERROR = -32000;

/** Reads, decodes and parses a JSON-RPC body; `isJson` says whether the Content-Type is application/json. */
export async function readJsonRpcBody(req: IncomingMessage, { isJson, maxBytes }: { isJson: boolean; maxBytes: number }): Promise<JsonRpcBody> {
  if (!isJson) return refuse(415, TRANSPORT_ERROR, 'Unsupported Media Type: Content-Type must be application/json');
  let bytes: Buffer;
  try {
    // co-body reads with a byte cap and undoes gzip/deflate; no encoding: the bytes are decoded strictly below.
    // Loaded by the first MCP request, not at start (the gateway's own routes load it with koa-body).
    const { default: coBody } = await import('co-body');
    bytes = (await coBody.text(req, { limit: maxBytes, encoding: null as unknown as string })) as Buffer;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 413) return refuse(413, TRANSPORT_ERROR, `Payload Too Large: the body must not exceed ${maxBytes} bytes`);
    if (status === 415) return refuse(415, TRANSPORT_ERROR, 'Unsupported Media Type: unsupported Content-Encoding');
    return refuse(400, PARSE_ERROR, 'Parse error: the request body could not be read');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse(400, PARSE_ERROR, 'Parse error: the request body is not UTF-8');
  }
  if (nestingExceeds(text, MAX_JSON_DEPTH)) return refuse(400, INVALID_REQUEST, `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return refuse(400, PARSE_ERROR, 'Parse error: the request body is not valid JSON');
  }
}

/** True when arrays and objects nest deeper than `max` (brackets inside strings do not count). */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
