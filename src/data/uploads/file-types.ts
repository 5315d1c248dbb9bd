// Which files are accepted, by extension and confirmed by content: a `.pdf` must start like a PDF,
// a `.parquet` like Parquet, so a renamed executable does not slip in as a document.
import { open } from 'node:fs/promises';

export type FileKind = 'csv' | 'tsv' | 'parquet' | 'json' | 'xlsx' | 'text' | 'image' | 'pdf' | 'zip';

/** Kinds DuckDB can query. */
export const DATA_KINDS: ReadonlySet<FileKind> = new Set(['csv', 'tsv', 'parquet', 'json', 'xlsx']);

const BY_EXTENSION: Record<string, FileKind> = {
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  parquet: 'parquet',
  json: 'json',
  jsonl: 'json',
  ndjson: 'json',
  xlsx: 'xlsx',
  txt: 'text',
  md: 'text',
  log: 'text',
  sql: 'text',
  yaml: 'text',
  yml: 'text',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  pdf: 'pdf',
  zip: 'zip',
};

const startsWith = (head: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
const ZIP = [0x50, 0x4b];

/** Content checks for binary kinds; text kinds must not look binary (a NUL byte in the first 4 KB). */
const MAGIC: Partial<Record<FileKind, (head: Buffer, ext: string) => boolean>> = {
  parquet: (h) => startsWith(h, [0x50, 0x41, 0x52, 0x31]),
  xlsx: (h) => startsWith(h, ZIP),
  zip: (h) => startsWith(h, ZIP),
  pdf: (h) => startsWith(h, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  image: (h, ext) =>
    ext === 'png'
      ? startsWith(h, [0x89, 0x50, 0x4e, 0x47])
      : ext === 'gif'
        ? startsWith(h, [0x47, 0x49, 0x46, 0x38])
        : ext === 'webp'
          ? startsWith(h, [0x52, 0x49, 0x46, 0x46]) && startsWith(h, [0x57, 0x45, 0x42, 0x50], 8)
          : startsWith(h, [0xff, 0xd8, 0xff]),
};

/** The lower-case extension of a file name, without the dot. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The kind a name announces, or undefined when it is not accepted. */
export function kindFromName(name: string): FileKind | undefined {
  return BY_EXTENSION[extensionOf(name)];
}

/** The kind of a file on disk when its name is accepted and its content agrees; undefined otherwise. */
export async function detectKind(path: string, name: string): Promise<FileKind | undefined> {
  const kind = kindFromName(name);
  if (!kind) return undefined;
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const bytes = head.subarray(0, bytesRead);
    const check = MAGIC[kind];
    if (check) return check(bytes, extensionOf(name)) ? kind : undefined;
    return bytes.includes(0) ? undefined : kind;
  } finally {
    await handle.close();
  }
}
