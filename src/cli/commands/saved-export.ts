// `sextant saved export <id>`: a saved question's rows as CSV or an Excel workbook, read now with the
// caller's permissions through the server's export (governed and streamed). The file is written
// beside its final name and renamed once complete, so a cut download never leaves a file that looks
// whole; `--output -` streams to stdout instead.
import { basename } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type { CommandContext } from '../context.ts';
import { CliError } from '../errors.ts';
import { apiError } from '../http.ts';
import { writeWhole } from '../whole-file.ts';

const FORMATS = ['csv', 'xlsx'] as const;
type Format = (typeof FORMATS)[number];

/** The server's name for the file (RFC 6266: the UTF-8 `filename*`, else `filename`), without any folder. */
export function filenameOf(disposition: string | null, fallback: string): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  const ascii = /filename="([^"]*)"/i.exec(disposition ?? '');
  let name = fallback;
  try {
    name = utf8 ? decodeURIComponent(utf8[1]!) : (ascii?.[1] ?? fallback);
  } catch {
    name = ascii?.[1] ?? fallback;
  }
  // A name is only a name: a server cannot make the CLI write outside the current folder.
  const base = basename(name.replace(/\\/g, '/'));
  return base === '' || base === '.' || base === '..' ? fallback : base;
}

export async function savedExport(ctx: CommandContext, id: string, opts: { format?: string; output?: string }): Promise<void> {
  const format = (opts.format ?? 'csv') as Format;
  if (!FORMATS.includes(format)) throw new CliError(`--format must be csv or xlsx, not "${opts.format}".`);
  const res = await ctx.client.raw('GET', `/api/saved_questions/${encodeURIComponent(id)}/export`, { query: { format }, headers: { accept: '*/*' } });
  if (!res.ok) throw await apiError(res);
  const body = Readable.fromWeb(res.body as WebStream<Uint8Array>);
  if (opts.output === '-') return streamTo(body, process.stdout);
  const file = opts.output ?? filenameOf(res.headers.get('content-disposition'), `${id}.${format}`);
  try {
    await writeWhole(body, file);
  } catch (err) {
    throw new CliError(`The export was cut before it ended (${(err as Error).message}); nothing was written. Run the command again.`);
  }
  ctx.out.out(ctx.out.json ? JSON.stringify({ id, format, file }) : `Wrote ${file}`);
}

async function streamTo(body: Readable, out: Writable): Promise<void> {
  try {
    await pipeline(body, out, { end: false });
  } catch (err) {
    throw new CliError(`The export was cut before it ended (${(err as Error).message}). Run the command again.`);
  }
}
