// What the agent reads: every item at one commit of an environment (or production), and a small
// term search over it. The commit id goes with the answer so it can be traced to the knowledge used.
import { readBlobs, readTree, resolveRef, type GitRepo } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { toItem, type Item } from './items.ts';
import { classifyPath, KIND_DEFS, type Kind } from './kinds.ts';
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
    const reading = readItems(repo, commit);
    items = reading;
    deps.snapshotCache.set(key, reading);
    reading.catch(() => {
      if (deps.snapshotCache.get(key) === reading) deps.snapshotCache.delete(key);
    });
    if (deps.snapshotCache.size > CACHE_SIZE) deps.snapshotCache.delete(deps.snapshotCache.keys().next().value!);
  }
  return items;
}

async function readItems(repo: GitRepo, commit: string): Promise<Item[]> {
  const files = (await readTree({ repo, ref: commit })).flatMap((f) => {
    const c = classifyPath(f.path);
    return c ? [{ ...f, ...c }] : [];
  });
  const texts = await readBlobs(repo, files.map((f) => f.oid));
  return files.map((f, i) => toItem(f.kind, f.id, f.path, texts[i]!, f.oid));
}

/** What search matches in an item: its data without row-access rules, which only admins may read. */
export function searchableData(data: Record<string, unknown>): Record<string, unknown> {
  const { row_filters: _hidden, ...visible } = data;
  return visible;
}

/** What an item is searched by, lower-cased. */
interface SearchText {
  title: string;
  head: string;
  hay: string;
}

// Computed on an item's first search and kept while the item lives: items are never changed once read
// (a snapshot's are shared by every question at its commit), and serializing each item's data on every
// search cost ~15 ms per question over 10,000 items, on the event loop.
const searchTexts = new WeakMap<Item, SearchText>();

function searchTextOf(item: Item, data: Record<string, unknown>): SearchText {
  let text = searchTexts.get(item);
  if (!text) {
    const title = KIND_DEFS[item.kind].titleOf(data);
    text = { title, head: `${item.id} ${title}`.toLowerCase(), hay: JSON.stringify(searchableData(data)).toLowerCase() };
    searchTexts.set(item, text);
  }
  return text;
}

/** Term search over items (case-insensitive; title hits weigh more). Row-access rules are never matched. */
export function searchItems(items: Item[], query: string, { kinds, limit = 10 }: { kinds?: Kind[]; limit?: number } = {}): SearchHit[] {
  const terms = query.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((t) => t.length > 1);
  if (terms.length === 0) return [];
  const hits: SearchHit[] = [];
  for (const item of items) {
    if (!item.data || (kinds && !kinds.includes(item.kind))) continue;
    if (item.kind === 'tables' && item.data['active'] === false) continue;
    const { title, head, hay } = searchTextOf(item, item.data);
    let score = 0;
    for (const t of terms) {
      if (head.includes(t)) score += 3;
      if (hay.includes(t)) score += 1;
    }
    if (score > 0) hits.push({ kind: item.kind, id: item.id, path: item.path, title, score, data: item.data });
  }
  return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit);
}
