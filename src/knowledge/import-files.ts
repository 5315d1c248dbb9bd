// Many files in one commit on an environment, decided against what the branch holds inside the
// write lock: how imports (src/imports, through src/compose) write knowledge.
import type { Principal } from '../auth/index.ts';
import { commitChanges, readBlobs, readTree, type FileChange } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { idProblem } from './item-id.ts';
import { KIND_DEFS, slugify, type Kind } from './kinds.ts';
import { mirrorAfterChange } from './mirror.ts';
import { authorOf, writeScope } from './scope.ts';
import { validateItem } from './validate-item.ts';

/** A file of the branch: its path and blob id. */
export interface ImportedFile {
  path: string;
  oid: string;
}

/** The file an item of `kind` would be written to, or why its id cannot name one. */
export function importedFileOf(kind: Kind, data: Record<string, unknown>, id?: string): { path: string } | { problem: string } {
  const def = KIND_DEFS[kind];
  const chosen = (def.idOfData(data)?.id ?? id ?? slugify(def.titleOf(data))).normalize('NFC');
  const problem = idProblem(kind, chosen);
  return problem ? { problem: `${kind} id ${chosen} ${problem}` } : { path: def.pathOf(chosen) };
}

/** Why an item does not pass its kind's schema for the file at `path`, or undefined. */
export function importedItemProblem(kind: Kind, path: string, data: Record<string, unknown>): string | undefined {
  try {
    validateItem(kind, KIND_DEFS[kind].idOfPath(path) ?? '', data);
    return undefined;
  } catch (err) {
    const issues = (err as { issues?: { loc: unknown[]; msg: string }[] }).issues;
    return `not a valid ${kind} item: ${issues?.map((i) => `${i.loc.slice(1).join('.')}: ${i.msg}`).join('; ') ?? (err as Error).message}`;
  }
}

/**
 * Commits the changes `decide` makes of the files under `prefixes`, on an environment (never
 * production). `decide` may write a file's blob as soon as it has its text (`write`, giving its id)
 * and name it by id in its changes, so that thousands of texts are never held at once.
 */
export async function commitImportedFiles(
  deps: KnowledgeDeps,
  p: Principal,
  envId: string,
  a: {
    prefixes: string[];
    message: string;
    decide: (files: ImportedFile[], read: (files: ImportedFile[]) => Promise<{ path: string; text: string }[]>, write: (text: string) => Promise<string>) => Promise<FileChange[]>;
  },
): Promise<{ commit: string | null; changed: boolean }> {
  const scope = await writeScope(deps, p, envId);
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: await authorOf(deps, p),
    message: a.message,
    changes: async (parent, blobs) => {
      const files = parent ? (await Promise.all(a.prefixes.map((prefix) => readTree({ repo: scope.repo, ref: parent, prefix })))).flat() : [];
      // Texts are read only for the files the caller asks about (reading thousands of blobs took seconds).
      const read = async (some: ImportedFile[]) => {
        const texts = await readBlobs(scope.repo, some.map((f) => f.oid));
        return some.map((f, i) => ({ path: f.path, text: texts[i]! }));
      };
      // The blobs go into one pack when there are many (see src/git/write-pack.ts).
      return a.decide(files, read, (text) => blobs.writeBlob(text));
    },
  });
  if (result.changed) await mirrorAfterChange(deps, scope);
  return { commit: result.oid ?? null, changed: result.changed };
}
