// Builds ZIP archives for the upload tests, hostile ones included. yazl refuses to write bad names,
// so those are written under a same-length placeholder and patched in the bytes afterwards.
import { randomBytes } from 'node:crypto';
import yazl from 'yazl';

export interface ZipItem {
  name: string;
  data?: Buffer | string;
  /** Unix mode (e.g. 0o120777 for a symbolic link). */
  mode?: number;
  compress?: boolean;
}

/** A ZIP holding `items`, in memory. */
export function makeZip(items: ZipItem[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const item of items) {
    const data = typeof item.data === 'string' ? Buffer.from(item.data) : (item.data ?? Buffer.from('a,b\n1,2\n'));
    zip.addBuffer(data, item.name, { compress: item.compress ?? true, ...(item.mode !== undefined ? { mode: item.mode } : {}) });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** A ZIP whose one entry is named `hostileName` (any bytes yazl would refuse), holding `data`. */
export async function zipWithName(hostileName: string, data = 'pwned,1\n'): Promise<Buffer> {
  const placeholder = 'p'.repeat(Buffer.byteLength(hostileName) - 4) + '.csv';
  const zip = await makeZip([{ name: placeholder, data }]);
  return replaceAll(zip, Buffer.from(placeholder), Buffer.from(hostileName));
}

function replaceAll(buf: Buffer, from: Buffer, to: Buffer): Buffer {
  const out = Buffer.from(buf);
  for (let i = out.indexOf(from); i !== -1; i = out.indexOf(from, i + to.length)) to.copy(out, i);
  return out;
}

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Applies `edit` to every central directory header (offsets per APPNOTE 4.3.12). */
export function patchCentral(zip: Buffer, edit: (buf: Buffer, at: number) => void): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i + 4 <= out.length; i++) if (out.readUInt32LE(i) === CENTRAL) edit(out, i);
  return out;
}

/** Applies `edit` to every local file header (APPNOTE 4.3.7). */
export function patchLocal(zip: Buffer, edit: (buf: Buffer, at: number) => void): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i + 4 <= out.length; i++) if (out.readUInt32LE(i) === LOCAL) edit(out, i);
  return out;
}

/** A unique marker name, so a test can look for a file that escaped anywhere. */
export function marker(): string {
  return `escaped-${randomBytes(6).toString('hex')}.csv`;
}
