// DuckDB's serialized parse trees hold numbers JavaScript cannot round-trip: UINT64_MAX positions,
// and doubles such as `10.0` that JSON.parse turns into the integer 10, which json_deserialize_sql
// then rejects ("expected type 'double', but got type: 'uint'"; a sample of 10% failed so). Such
// numbers are kept as their exact text, marked, and written back as they came.
import { randomBytes } from 'node:crypto';

const MARK = `\u0000${randomBytes(6).toString('hex')}:`;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** JSON.parse, keeping every non-integer or unsafe integer as its exact text. */
export function parseExactJson(json: string): unknown {
  let out = '';
  let at = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (c === '"') {
      for (i++; json[i] !== '"'; i++) if (json[i] === '\\') i++;
      continue;
    }
    if (c !== '-' && (c < '0' || c > '9')) continue;
    NUMBER.lastIndex = i;
    const text = NUMBER.exec(json)![0];
    if (/[.eE]/.test(text) || !Number.isSafeInteger(Number(text))) {
      out += json.slice(at, i) + JSON.stringify(MARK + text);
      at = i + text.length;
    }
    i += text.length - 1;
  }
  return JSON.parse(out + json.slice(at));
}

/** JSON.stringify, writing marked numbers back as their exact text. */
export function stringifyExactJson(value: unknown): string {
  const marker = JSON.stringify(MARK).slice(1, -1).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  return JSON.stringify(value).replace(new RegExp(`"${marker}([^"]*)"`, 'g'), '$1');
}

/** The number a possibly marked value holds. */
export function exactNumber(v: unknown): number {
  return typeof v === 'string' && v.startsWith(MARK) ? Number(v.slice(MARK.length)) : Number(v);
}
