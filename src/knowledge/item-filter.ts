// Which items of a list a person asked for: the words they searched for, and for the row security
// page only the tables that carry row filters. Applied on the server so that a list of 10,000
// tables is searched without sending every item to the browser.
import type { Item } from './item.ts';

export interface ItemFilter {
  /** Words that must each appear, ignoring case, in the item's id or its title (or name). */
  q?: string | undefined;
  /** Only items whose documentation has at least one row filter. */
  rowFilters?: boolean | undefined;
}

/** The search words of `q`, lower-cased; none for a blank or missing `q`. */
const termsOf = (q: string | undefined) => (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);

// Items are never changed once read and are shared by the snapshots after their commit, so the text
// a search reads is built once per item.
const haystacks = new WeakMap<Item, string>();

function haystackOf(item: Item): string {
  let text = haystacks.get(item);
  if (text === undefined) {
    const title = item.data?.['title'] ?? item.data?.['name'];
    text = `${item.id}\n${typeof title === 'string' ? title : ''}`.toLowerCase();
    haystacks.set(item, text);
  }
  return text;
}

const hasRowFilters = (item: Item) => {
  const rules = item.data?.['row_filters'];
  return Array.isArray(rules) && rules.length > 0;
};

// The last filter applied to each list: the pages of one search read the same filtered list.
const lastFiltered = new WeakMap<readonly Item[], { key: string; items: Item[] }>();

/** The items of `items` (in their order) that the filter keeps; `items` itself without a filter. */
export function filterItems(items: Item[], filter: ItemFilter): Item[] {
  const terms = termsOf(filter.q);
  if (terms.length === 0 && !filter.rowFilters) return items;
  const key = JSON.stringify([terms, Boolean(filter.rowFilters)]);
  const last = lastFiltered.get(items);
  if (last?.key === key) return last.items;
  const kept = items.filter((item) => (!filter.rowFilters || hasRowFilters(item)) && terms.every((term) => haystackOf(item).includes(term)));
  lastFiltered.set(items, { key, items: kept });
  return kept;
}
