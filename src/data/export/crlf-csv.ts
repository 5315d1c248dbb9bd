// PostgreSQL's COPY writes CSV lines ending in LF; the service's CSV ends them in CRLF (RFC 4180, as
// writeCsv and DuckDB's COPY path do). Only line ends between records change: a line break inside a
// quoted field is data and stays as it is, so the transform follows the quotes across chunks.
import { Transform, type TransformCallback } from 'node:stream';

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/** A stream that turns the record ends of CSV text from LF into CRLF. */
export function crlfCsv(): Transform {
  let quoted = false;
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      const parts: Buffer[] = [];
      let from = 0;
      let quote = chunk.indexOf(QUOTE);
      let lf = chunk.indexOf(LF);
      for (;;) {
        if (quoted) {
          if (quote < 0) break;
          quoted = false;
        } else if (lf >= 0 && (quote < 0 || lf < quote)) {
          parts.push(chunk.subarray(from, lf), CRLF);
          from = lf + 1;
          lf = chunk.indexOf(LF, from);
          continue;
        } else if (quote >= 0) {
          quoted = true;
        } else break;
        // Past a quote: line ends before it were inside the field.
        const next = quote + 1;
        quote = chunk.indexOf(QUOTE, next);
        if (lf >= 0 && lf < next) lf = chunk.indexOf(LF, next);
      }
      if (from === 0) return done(null, chunk);
      parts.push(chunk.subarray(from));
      done(null, Buffer.concat(parts));
    },
  });
}
