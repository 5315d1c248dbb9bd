// The agent skill document and its `.skill` archive (a zip with one root folder holding SKILL.md).
import { readFileSync } from 'node:fs';
import { ZipFile } from 'yazl';

const SKILL_FILE = new URL('../../docs/SKILL.md', import.meta.url);

/** The skill document, Markdown with a front matter naming the skill. */
export function skillDocument(): string {
  return readFileSync(SKILL_FILE, 'utf8');
}

/** A zip archive `sextant/SKILL.md`, built in memory (a few kilobytes). */
export async function skillArchive(mtime: Date): Promise<Buffer> {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(skillDocument()), 'sextant/SKILL.md', { mtime, mode: 0o100644 });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
