// Three-way merge of trees that only descends where all three differ, so its cost follows the size
// of the change. It settles every path changed on at most one side; a path changed on both sides
// (content merge, delete/modify, file versus folder) is left to isomorphic-git's full merge, which
// merges content with diff3 and reports conflicts. Both paths give git's result for what they settle.
import type { TreeEntry } from 'isomorphic-git';
import type { GitRepo } from './repo.ts';
import { treeEntries } from './tree-cache.ts';
import { writeTreeObject } from './write-object.ts';

/** Returned when a path changed on both sides: the caller falls back to the full merge. */
export const NEEDS_FULL_MERGE = Symbol('needs full merge');

const same = (a: TreeEntry | undefined, b: TreeEntry | undefined) => a?.oid === b?.oid && a?.mode === b?.mode;

/** The merged tree id (undefined for an empty tree) or NEEDS_FULL_MERGE. */
export async function mergeTrees(
  repo: GitRepo,
  base: string | undefined,
  ours: string | undefined,
  theirs: string | undefined,
): Promise<string | undefined | typeof NEEDS_FULL_MERGE> {
  if (ours === theirs) return ours;
  if (base === ours) return theirs;
  if (base === theirs) return ours;
  const [b, o, t] = await Promise.all([base, ours, theirs].map(async (oid) => new Map((oid ? await treeEntries(repo, oid) : []).map((e) => [e.path, e]))));
  const names = new Set([...o!.keys(), ...t!.keys(), ...b!.keys()]);
  const out: TreeEntry[] = [];
  for (const name of names) {
    const [eb, eo, et] = [b!.get(name), o!.get(name), t!.get(name)];
    let pick: TreeEntry | undefined;
    if (same(eo, et)) pick = eo;
    else if (same(eb, eo)) pick = et;
    else if (same(eb, et)) pick = eo;
    else if (eo?.type === 'tree' && et?.type === 'tree' && (!eb || eb.type === 'tree')) {
      const sub = await mergeTrees(repo, eb?.oid, eo.oid, et.oid);
      if (sub === NEEDS_FULL_MERGE) return sub;
      pick = sub ? { mode: '040000', path: name, oid: sub, type: 'tree' } : undefined;
    } else return NEEDS_FULL_MERGE;
    if (pick) out.push(pick);
  }
  if (out.length === 0) return undefined;
  return writeTreeObject(repo, out);
}
