// What the agent reads: every item at one commit of an environment (or production), and a small
// term search over it. The commit id goes with the answer so it can be traced to the knowledge used.
import { diffRefs, readBlobs, readFileVersion, readTree, resolveRef, type GitRepo } from '../git/index.ts';
import { recordChange } from '../shared/derived-list.ts';
import { allowedEdits, nearest } from '../shared/typos.ts';
import type { KnowledgeDeps } from './deps.ts';
import { toItem, type Item } from './items.ts';
import { classifyPath, type Kind } from './kinds.ts';
import { addMatches, NON_WORD, scopeOf, searchIndexOf, wordsAround, type SearchScope } from './search-index.ts';
import { scopeFor } from './scope.ts';

/** All knowledge at one commit. */
export interface KnowledgeSnapshot {
  orgId: string;
  environmentId: string | undefined;
  /** The commit read; null when the organization has no knowledge yet. */
  commit: string | null;
  items: Item[];
  /** Items ranked by how many query terms they mention; inactive tables and broken files are left out. */
  search(query: string, opts?: { kinds?: Kind[]; limit?: number }): SearchHit[];
}

export interface SearchHit {
  kind: Kind;
  id: string;
  path: string;
  title: string;
  score: number;
  data: Record<string, unknown>;
}

const CACHE_SIZE = 16;

/**
 * Knowledge of an organization at an environment (undefined = production), at its current commit or
 * at `at`, a commit of its repository the caller resolved earlier (evaluation runs read one commit).
 */
export async function knowledgeAt(deps: KnowledgeDeps, orgId: string, environmentId: string | undefined, at?: string): Promise<KnowledgeSnapshot> {
  const scope = await scopeFor(deps, orgId, environmentId);
  const commit = at ?? (await resolveRef({ repo: scope.repo, ref: scope.branch })) ?? null;
  const all = commit ? await itemsOf(deps, scope.repo, `${orgId}:${commit}`, commit) : [];
  return { orgId, environmentId, commit, items: all, search: (q, opts) => searchItems(all, q, opts) };
}

/** Every item at a commit of an organization's repository, through the same cache as the snapshots. */
export function itemsAtCommit(deps: KnowledgeDeps, repo: GitRepo, orgId: string, commit: string): Promise<Item[]> {
  return itemsOf(deps, repo, `${orgId}:${commit}`, commit);
}

/**
 * The items at a commit, read once: questions arriving together after a new commit (or a restart)
 * share one read of its tree and blobs instead of each reading them. A failed read is not kept.
 */
function itemsOf(deps: KnowledgeDeps, repo: GitRepo, key: string, commit: string): Promise<Item[]> {
  let items = deps.snapshotCache.get(key);
  if (!items) {
    const reading = readItems(repo, commit, latestOf(deps, key));
    items = reading;
    deps.snapshotCache.set(key, reading);
    reading.catch(() => {
      if (deps.snapshotCache.get(key) === reading) deps.snapshotCache.delete(key);
    });
    if (deps.snapshotCache.size > CACHE_SIZE) deps.snapshotCache.delete(deps.snapshotCache.keys().next().value!);
  }
  return items;
}

/** A snapshot read before: its commit and items. */
interface Previous {
  commit: string;
  items: Promise<Item[] | undefined>;
}

/** The organization's most recently read snapshot other than `key` (usually the commit before), if any. */
function latestOf(deps: KnowledgeDeps, key: string): Previous | undefined {
  const org = key.slice(0, key.indexOf(':') + 1);
  const keys = [...deps.snapshotCache.keys()];
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    if (k !== key && k.startsWith(org)) return { commit: k.slice(org.length), items: deps.snapshotCache.get(k)!.catch(() => undefined) };
  }
  return undefined;
}

/**
 * Reads the items at `commit`. After a commit that changed a few files, the snapshot is the one read
 * before with those files swapped: the two trees are compared where their ids differ (git's diff) and
 * only the changed files are read and parsed, so the first read after a one-file commit costs what
 * changed, not the 10,000 files kept (a walk of the whole tree and a pass over every item were ~300 ms
 * of the first catalog read at 10,000 tables). The change is recorded (src/shared/derived-list.ts) so
 * that what is built per snapshot (table files, documentation, the catalog's names) follows it too.
 */
async function readItems(repo: GitRepo, commit: string, previous: Previous | undefined): Promise<Item[]> {
  const before = previous && (await previous.items);
  if (previous && before) {
    // A failure to compare (the commit before unreadable) is no failure to read: the tree is read whole.
    const derived = await derivedItems(repo, previous.commit, before, commit).catch(() => undefined);
    if (derived) return derived;
  }
  return readAllItems(repo, commit, before);
}

/** Above this many changed files a snapshot is read whole (each changed file is looked up on its own). */
const MAX_DERIVED_CHANGES = 200;

/** The items at `commit` as `before` (the items at `from`) with the files changed since swapped; undefined when too many changed. */
async function derivedItems(repo: GitRepo, from: string, before: Item[], commit: string): Promise<Item[] | undefined> {
  const diff = await diffRefs({ repo, from, to: commit });
  if (diff.length > MAX_DERIVED_CHANGES) return undefined;
  const read = await Promise.all(
    diff.map(async ({ path, status }) => {
      const c = status === 'deleted' ? undefined : classifyPath(path);
      const file = c && (await readFileVersion({ repo, ref: commit, path }));
      return file && c ? toItem(c.kind, c.id, path, file.text, file.oid) : undefined;
    }),
  );
  const items = before.slice();
  const removed: Item[] = [];
  const added: Item[] = [];
  for (const [i, { path }] of diff.entries()) {
    const at = pathIndex(items, path);
    if (items[at]?.path === path) removed.push(...items.splice(at, 1));
    const item = read[i];
    if (!item) continue;
    items.splice(at, 0, item);
    added.push(item);
  }
  recordChange(items, { base: before, removed, added });
  return items;
}

/** Index of the first item whose path sorts at or after `path`, by bytes (the tree walk's order). */
function pathIndex(items: Item[], path: string): number {
  const key = Buffer.from(path);
  let [lo, hi] = [0, items.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(Buffer.from(items[mid]!.path), key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Items of a snapshot by path, built once per item list when a later commit is read against it.
const byPath = new WeakMap<Item[], Map<string, Item>>();

function itemsByPath(items: Item[]): Map<string, Item> {
  let map = byPath.get(items);
  if (!map) byPath.set(items, (map = new Map(items.map((i) => [i.path, i]))));
  return map;
}

/**
 * Every item at `commit`, from a walk of its tree. A file with the same path and blob as in `previous`
 * is that snapshot's item, already parsed (items are never changed once read): only the files that
 * differ are read and parsed.
 */
async function readAllItems(repo: GitRepo, commit: string, previous: Item[] | undefined): Promise<Item[]> {
  const tree = await readTree({ repo, ref: commit });
  const known = previous ? itemsByPath(previous) : undefined;
  const items: (Item | undefined)[] = [];
  const missing: { at: number; path: string; oid: string; kind: Kind; id: string }[] = [];
  for (const { path, oid } of tree) {
    // A known path was classified when it was read; the same path classifies the same.
    const item = known?.get(path);
    if (item?.version === oid) {
      items.push(item);
      continue;
    }
    const c = classifyPath(path);
    if (!c) continue;
    missing.push({ at: items.length, path, oid, ...c });
    items.push(undefined);
  }
  const texts = await readBlobs(repo, missing.map((f) => f.oid));
  for (const [i, f] of missing.entries()) items[f.at] = toItem(f.kind, f.id, f.path, texts[i]!, f.oid);
  return items as Item[];
}

/** Term search over items (case-insensitive; title hits weigh more). Row-access rules are never matched. */
export function searchItems(items: Item[], query: string, { kinds, limit = 10 }: { kinds?: Kind[]; limit?: number } = {}): SearchHit[] {
  const terms = query.toLowerCase().split(NON_WORD).filter((t) => t.length > 1);
  if (terms.length === 0) return [];
  const index = searchIndexOf(items);
  const scores = new Uint32Array(index.entries.length);
  const seen = new Uint8Array(index.entries.length);
  let kept: SearchScope | undefined;
  const scope = () => (kept ??= scopeOf(index, kinds));
  for (const t of terms) {
    const edits = allowedEdits(t);
    const wanted = edits > 0 && kinds ? scope().wanted : undefined;
    const inHeads = addMatches(index.heads, t, 3, scores, seen, wanted);
    const inHays = addMatches(index.hays, t, 1, scores, seen, wanted);
    if (inHeads || inHays || edits === 0) continue;
    // A term no text of the kinds searched holds may be a typo ("revnue"): its nearest words stand for
    // it (shared/typos.ts). An evaluation quoting the typo as its question does not count.
    for (const near of nearest(t, wordsAround(scope(), t.length, edits))) {
      addMatches(index.heads, near, 3, scores, seen);
      addMatches(index.hays, near, 1, scores, seen);
    }
  }
  const hits: SearchHit[] = [];
  for (const [i, score] of scores.entries()) {
    if (score === 0) continue;
    const { item, title } = index.entries[i]!;
    if (kinds && !kinds.includes(item.kind)) continue;
    if (item.kind === 'tables' && item.data!['active'] === false) continue;
    hits.push({ kind: item.kind, id: item.id, path: item.path, title, score, data: item.data! });
  }
  return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit);
}
