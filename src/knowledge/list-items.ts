// The list of a kind's items, whole or a page at a time. Read through the snapshot cache: a commit's
// items never change, and reading and parsing every file again on each request took seconds at
// thousands of documented tables.
import type { Principal } from '../auth/index.ts';
import { InvalidCursor } from '../errors.ts';
import { resolveRef } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import type { Item } from './item.ts';
import { filterItems, type ItemFilter } from './item-filter.ts';
import { KINDS, type Kind } from './kinds.ts';
import { mapList } from '../shared/derived-list.ts';
import { readScope } from './scope.ts';
import { itemsAtCommit } from './snapshot.ts';

export interface ItemPage {
  /** The commit read; null when the organization has no knowledge yet. */
  commit: string | null;
  /** In path order; shared with other readers of the commit, not to be changed. */
  items: Item[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  /** How many items the filter keeps on every page together. */
  total: number;
}

const encodeCursor = (path: string) => Buffer.from(JSON.stringify({ p: path })).toString('base64url');

function decodeCursor(cursor: string): string {
  try {
    const p = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p?: unknown }).p;
    if (typeof p === 'string') return p;
  } catch {
    // Falls through to the validation error.
  }
  throw new InvalidCursor();
}

/**
 * Items of a kind visible to the caller that `filter` keeps, after `cursor` (keyset on the path, so a
 * page is stable while items are added or removed) and at most `limit` of them; without a limit, every one.
 */
export async function listItems(
  deps: KnowledgeDeps,
  p: Principal,
  envId: string | undefined,
  kind: Kind,
  { cursor, limit, ...filter }: { cursor?: string | undefined; limit?: number | undefined } & ItemFilter = {},
): Promise<ItemPage> {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const scope = await readScope(deps, p, envId);
  const commit = await resolveRef({ repo: scope.repo, ref: scope.branch });
  if (!commit) return { commit: null, items: [], next_cursor: null, total: 0 };
  const kept = filterItems(itemsOfKind(await itemsAtCommit(deps, scope.repo, p.orgId, commit), kind), filter);
  const rest = after === undefined ? kept : kept.slice(firstAfter(kept, after));
  const items = limit === undefined ? rest : rest.slice(0, limit);
  return { commit, items, next_cursor: items.length < rest.length ? encodeCursor(items[items.length - 1]!.path) : null, total: kept.length };
}

// A snapshot's items of each kind, once per snapshot (a snapshot after a commit: the list before with
// the change applied, see src/shared/derived-list.ts), instead of a pass over every item per page.
const byKind = Object.fromEntries(KINDS.map((k) => [k, new WeakMap<readonly Item[], Item[]>()])) as Record<Kind, WeakMap<readonly Item[], Item[]>>;

function itemsOfKind(items: Item[], kind: Kind): Item[] {
  return mapList(items, byKind[kind], (item) => (item.kind === kind ? item : undefined));
}

/** Index of the first item whose path sorts after `path`: items come in the tree walk's order, by bytes. */
function firstAfter(items: Item[], path: string): number {
  const key = Buffer.from(path);
  let [lo, hi] = [0, items.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(Buffer.from(items[mid]!.path), key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
