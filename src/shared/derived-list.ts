// Lists made from another list by a small change, and the lists mapped from them, kept in step without
// a pass over every element. A knowledge snapshot after a commit is the snapshot before with the
// changed files swapped (src/knowledge/snapshot.ts); its table files, their documentation and the
// catalog's names are mapped from it layer by layer, and at 10,000 tables a pass per layer and commit
// was most of the first catalog read after a commit. Lists and elements are never changed once made.

/** How a list was made from `base`: elements removed and added (by identity), nothing changed in place. */
export interface ListChange<T> {
  base: readonly T[];
  removed: readonly T[];
  added: readonly T[];
}

interface Lineage {
  // Weak: a list must not keep every list before it alive; a base that is gone is mapped anew.
  base: WeakRef<readonly unknown[]>;
  removed: readonly unknown[];
  added: readonly unknown[];
}

const lineages = new WeakMap<readonly unknown[], Lineage>();

/** Remembers that `list` was made from `change.base` by `change` (the caller made it so). */
export function recordChange<T extends object>(list: readonly T[], change: ListChange<T>): void {
  lineages.set(list, { base: new WeakRef(change.base), removed: change.removed, added: change.added });
}

/** How `list` was made, when recorded and its base is still alive. */
export function changeOf<T extends object>(list: readonly T[]): ListChange<T> | undefined {
  const lineage = lineages.get(list);
  const base = lineage?.base.deref() as readonly T[] | undefined;
  return lineage && base ? { base, removed: lineage.removed as T[], added: lineage.added as T[] } : undefined;
}

/**
 * `list` mapped by `f` (undefined leaves an element out), in the list's order, once per list (kept in
 * `cache`). When `list` was made from a base whose mapping is kept, the mapping is that one with the
 * change applied, and is recorded as made from it in turn, so that the next layer does the same. `f`
 * must give the same value for an element every time (cache it per element) and different values for
 * different elements.
 */
export function mapList<T extends object, U extends object>(list: readonly T[], cache: WeakMap<readonly T[], U[]>, f: (element: T) => U | undefined, depth = 0): U[] {
  let out = cache.get(list);
  if (out) return out;
  const change = changeOf(list);
  // A base nobody mapped yet (a page of the list was read at that commit, not the catalog) is mapped
  // first, itself from its own base: a few small changes instead of a pass over every element.
  const before = change && (cache.get(change.base) ?? (depth < MAX_DEPTH ? mapList(change.base, cache, f, depth + 1) : undefined));
  out = before && change ? applied(list, change, before, f) : mapAll(list, f);
  cache.set(list, out);
  return out;
}

/** How many unmapped bases mapList goes back through before it maps a list whole. */
const MAX_DEPTH = 16;

function mapAll<T, U>(list: readonly T[], f: (element: T) => U | undefined): U[] {
  const out: U[] = [];
  for (const element of list) {
    const u = f(element);
    if (u !== undefined) out.push(u);
  }
  return out;
}

/** The base's mapping with the change applied: each added element after the mapped element before it in `list`. */
function applied<T extends object, U extends object>(list: readonly T[], change: ListChange<T>, before: U[], f: (element: T) => U | undefined): U[] {
  const out = before.slice();
  const removed: U[] = [];
  for (const element of change.removed) {
    const u = f(element);
    const at = u === undefined ? -1 : out.indexOf(u);
    if (at === -1) continue;
    out.splice(at, 1);
    removed.push(u!);
  }
  const added: U[] = [];
  // In the list's order, so that the element before an added one is already in place.
  const positions = change.added.map((element) => list.indexOf(element)).sort((a, b) => a - b);
  for (const i of positions) {
    const u = i === -1 ? undefined : f(list[i]!);
    if (u === undefined) continue;
    out.splice(placeAfter(list, i, out, f), 0, u);
    added.push(u);
  }
  recordChange(out, { base: before, removed, added });
  return out;
}

/** Where the mapping of `list[i]` goes in `out`: after the mapping of the nearest element before it that has one. */
function placeAfter<T, U>(list: readonly T[], i: number, out: U[], f: (element: T) => U | undefined): number {
  for (let j = i - 1; j >= 0; j--) {
    const u = f(list[j]!);
    if (u !== undefined) return out.indexOf(u) + 1;
  }
  return 0;
}

/** A list sorted by `compare`, with `removed` taken out and `added` put in their places (a copy). */
export function resorted<T>(sorted: readonly T[], compare: (a: T, b: T) => number, removed: readonly T[], added: readonly T[]): T[] {
  const out = sorted.slice();
  for (const element of removed) {
    const at = out.indexOf(element);
    if (at !== -1) out.splice(at, 1);
  }
  for (const element of added) out.splice(sortedIndex(out, element, compare), 0, element);
  return out;
}

/** The first index in `sorted` whose element sorts after `element` (binary search). */
export function sortedIndex<T>(sorted: readonly T[], element: T, compare: (a: T, b: T) => number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid]!, element) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
