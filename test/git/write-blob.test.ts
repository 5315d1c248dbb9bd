// Blobs written with Node's zlib and hash: the same id as git's, and the git command line reads them back.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRepo } from '../../src/git/index.ts';
import { writeBlob } from '../../src/git/write-blob.ts';

test('a blob has the id git gives its text, and git reads it back byte for byte', async (t) => {
  const gitdir = join(mkdtempSync(join(tmpdir(), 'sextant-blob-')), 'org.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gitdir]);
  const repo = await openRepo({ fs, gitdir });
  for (const text of ['', 'name: orders\n', 'description: "Café ☕ and 日本"\n'.repeat(500)]) {
    const oid = await writeBlob(repo, text);
    // Loose objects reach their names when a ref moves (durable-fs.ts); here, at once.
    await repo.dfs.flush();
    t.is(oid, execFileSync('git', ['hash-object', '--stdin'], { input: text }).toString().trim());
    t.is(execFileSync('git', ['--git-dir', gitdir, 'cat-file', 'blob', oid]).toString(), text);
  }
});
