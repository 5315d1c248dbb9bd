// The index the agent's knowledge search reads: for each list of items, the distinct words of their
// search texts, each with the items that hold it. A query term (letters, digits and `_` only) found
// anywhere in a text lies inside one of its words, so finding the term in the words and scoring their
// items is the same as finding it in every text, over a far shorter string: at 10,000 tables the
// texts joined were ~10 MB, read once per term and question (~22 ms CPU a question), their distinct
// words a few hundred KB.
import type { Item } from './item.ts';
import { KIND_DEFS } from './kinds.ts';

/** What separates words; query terms are split by the same. */
export const NON_WORD = /[^\p{L}\p{N}_]+/u;

/** What an item is searched by: its title, and the distinct words of its head (id and title) and of its data. */
interface SearchText {
  title: string;
  head: string[];
  hay: string[];
}

/** The search index of an item list. */
export interface SearchIndex {
  entries: { item: Item; title: string }[];
  heads: Words;
  hays: Words;
}

/** Distinct words (as a list, and joined by a character no term holds), where each starts, and the entries holding each. */
interface Words {
  list: string[];
  text: string;
  starts: number[];
  holders: number[][];
}

const wordsOf = (text: string) => [...new Set(text.toLowerCase().split(NON_WORD).filter(Boolean))];

// Computed on an item's first search and kept while the item lives: items are never changed once read
// (a snapshot's are shared by every question at its commit, and by the snapshots after it).
const searchTexts = new WeakMap<Item, SearchText>();

function searchTextOf(item: Item, data: Record<string, unknown>): SearchText {
  let text = searchTexts.get(item);
  if (!text) {
    const title = KIND_DEFS[item.kind].titleOf(data);
    text = { title, head: wordsOf(`${item.id} ${title}`), hay: wordsOf(JSON.stringify(searchableData(data))) };
    searchTexts.set(item, text);
  }
  return text;
}

/** What search matches in an item: its data without row-access rules, which only admins may read. */
export function searchableData(data: Record<string, unknown>): Record<string, unknown> {
  const { row_filters: _hidden, ...visible } = data;
  return visible;
}

// One per item list (a snapshot's is shared by every question at its commit and never changed).
const searchIndexes = new WeakMap<Item[], SearchIndex>();

/** The index of `items`, built on the list's first search. */
export function searchIndexOf(items: Item[]): SearchIndex {
  let index = searchIndexes.get(items);
  if (!index) {
    const entries: SearchIndex['entries'] = [];
    const heads = new Map<string, number[]>();
    const hays = new Map<string, number[]>();
    for (const item of items) {
      if (!item.data) continue;
      const { title, head, hay } = searchTextOf(item, item.data);
      const at = entries.push({ item, title }) - 1;
      for (const word of head) holdersOf(heads, word).push(at);
      for (const word of hay) holdersOf(hays, word).push(at);
    }
    searchIndexes.set(items, (index = { entries, heads: joined(heads), hays: joined(hays) }));
  }
  return index;
}

function holdersOf(words: Map<string, number[]>, word: string): number[] {
  let holders = words.get(word);
  if (!holders) words.set(word, (holders = []));
  return holders;
}

function joined(words: Map<string, number[]>): Words {
  const starts: number[] = [];
  let at = 0;
  for (const word of words.keys()) {
    starts.push(at);
    at += word.length + 1;
  }
  const list = [...words.keys()];
  return { list, text: list.join('\u0000'), starts, holders: [...words.values()] };
}

/**
 * Adds `weight` to the score of every entry holding a word that contains `term`, once per entry (as
 * one `includes` per text would); `seen` marks the entries already scored for this term and text.
 * True when an entry the search wants (all without `wanted`) holds the term.
 */
export function addMatches({ text, starts, holders }: Words, term: string, weight: number, scores: Uint32Array, seen: Uint8Array, wanted?: Uint8Array): boolean {
  seen.fill(0);
  let at = text.indexOf(term);
  let found = false;
  while (at !== -1) {
    const w = wordAt(starts, at);
    for (const i of holders[w]!) {
      if (seen[i]) continue;
      seen[i] = 1;
      scores[i]! += weight;
      found ||= !wanted || wanted[i] === 1;
    }
    at = w + 1 < starts.length ? text.indexOf(term, starts[w + 1]) : -1;
  }
  return found;
}

/** What a search of some kinds reads of an index: the entries it wants, and their words by length. */
export interface SearchScope {
  /** 1 for an entry of the kinds searched; undefined when every kind is. */
  wanted: Uint8Array | undefined;
  /** The distinct words held by a wanted entry, by their length (where a typo's nearest words are looked for). */
  byLength: Map<number, string[]>;
}

// Per index and kinds searched, built on the first search of those kinds with a term long enough to be a
// typo, and kept with the index.
const scopes = new WeakMap<SearchIndex, Map<string, SearchScope>>();

/** The scope of a search of `kinds` (all when undefined) over the index. */
export function scopeOf(index: SearchIndex, kinds: readonly Item['kind'][] | undefined): SearchScope {
  let byKinds = scopes.get(index);
  if (!byKinds) scopes.set(index, (byKinds = new Map()));
  const key = kinds ? [...kinds].sort().join(',') : '*';
  let scope = byKinds.get(key);
  if (!scope) {
    const wanted = kinds && Uint8Array.from(index.entries, (e) => (kinds.includes(e.item.kind) ? 1 : 0));
    const byLength = new Map<number, string[]>();
    const taken = new Set<string>();
    for (const { list, holders } of [index.heads, index.hays]) {
      for (const [w, word] of list.entries()) {
        if (taken.has(word) || (wanted && !holders[w]!.some((i) => wanted[i] === 1))) continue;
        taken.add(word);
        let same = byLength.get(word.length);
        if (!same) byLength.set(word.length, (same = []));
        same.push(word);
      }
    }
    byKinds.set(key, (scope = { wanted, byLength }));
  }
  return scope;
}

/** The scope's words within `spread` letters of `length` long. */
export function* wordsAround({ byLength }: SearchScope, length: number, spread: number): Generator<string> {
  for (let l = length - spread; l <= length + spread; l++) yield* byLength.get(l) ?? [];
}

/** The word holding position `at`: the last start at or before it. */
function wordAt(starts: number[], at: number): number {
  let [lo, hi] = [0, starts.length - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
