// Loads a folder of knowledge files (fixtures/knowledge for the demo) as an organization's first
// commit. Does nothing once production has ever existed (its ref, even damaged, or its reflog), or when
// the repository shows it once held knowledge (other branches, commits, environments in the database:
// production was lost, see git/repo-history.ts), so it is safe on every start and never starts an
// organization's knowledge over; reads of a lost production answer 503 REPOSITORY_DAMAGED.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { branchRef, commitChanges, hadHistory, MAIN_BRANCH, refHasHistory, RepositoryMissing, type GitAuthor } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { classifyPath } from './kinds.ts';
import { validateItem } from './validate-item.ts';
import { parseYaml } from './yaml-doc.ts';

/** Rewrites a file's content before it is committed (the demo fills in answers computed from its warehouse). */
export type SeedTransform = (path: string, content: string) => Promise<string>;

/** Commits every file under `dir` to production if it has no commit yet; true when it did. */
export async function seedKnowledge(
  deps: KnowledgeDeps,
  { orgId, dir, author, message = 'Initial knowledge', transform }: { orgId: string; dir: string; author: GitAuthor; message?: string; transform?: SeedTransform },
): Promise<boolean> {
  const repo = await deps.repos.repo(orgId).catch((err: unknown) => {
    if (err instanceof RepositoryMissing) return undefined;
    throw err;
  });
  if (!repo || (await refHasHistory(repo, branchRef(MAIN_BRANCH))) || (await hadHistory(repo))) return false;
  const paths = (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)).split(sep).join('/'))
    .sort();
  const changes = [];
  for (const path of paths) {
    const read = readFileSync(join(dir, path), 'utf8');
    const content = transform ? await transform(path, read) : read;
    const managed = classifyPath(path);
    // A broken fixture should fail loudly at start, not show up as a broken item later.
    if (managed) validateItem(managed.kind, managed.id, parseYaml(content).value);
    changes.push({ path, content });
  }
  const result = await commitChanges({ repo, branch: MAIN_BRANCH, author, message, changes });
  return result.changed;
}
