// Row filters are a security control, and knowledge outside production is anyone's draft: a modeler
// who removed a table's row filter in an environment would otherwise read the rows the filter hides.
// A query governed by an environment's knowledge therefore also gets production's current row filters
// of the same table; both sets apply (policyFor ANDs them), so an environment can tighten a filter,
// never loosen it. Admins decide what production holds.
import type { RowFilter, TableDoc } from '../types.ts';

const keyOf = (d: TableDoc) => JSON.stringify([d.connection, d.schema.toLowerCase(), d.name.toLowerCase()]);
const filterKey = (f: RowFilter) => JSON.stringify(f);

/** Kept by the two lists' identity, so that a snapshot's rewrites stay memoized (govern-memo.ts keys them by the docs). */
const merged = new WeakMap<TableDoc[], { production: TableDoc[]; docs: TableDoc[] }>();

function merge(docs: TableDoc[], production: TableDoc[]): TableDoc[] {
  const filtersOf = new Map(production.filter((d) => d.row_filters?.length).map((d) => [keyOf(d), d.row_filters!]));
  if (filtersOf.size === 0) return docs;
  let changed = false;
  const out = docs.map((d) => {
    const required = filtersOf.get(keyOf(d));
    if (!required) return d;
    const own = d.row_filters ?? [];
    const present = new Set(own.map(filterKey));
    const missing = required.filter((f) => !present.has(filterKey(f)));
    if (missing.length === 0) return d;
    changed = true;
    return { ...d, row_filters: [...own, ...missing] };
  });
  return changed ? out : docs;
}

/** `docs` (an environment's) with production's row filters of each table production documents. */
export function withProductionFilters(docs: TableDoc[], production: TableDoc[]): TableDoc[] {
  if (docs === production) return docs;
  const kept = merged.get(docs);
  if (kept?.production === production) return kept.docs;
  const out = merge(docs, production);
  merged.set(docs, { production, docs: out });
  return out;
}
