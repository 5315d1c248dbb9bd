// Field-by-field three-way merge of an item: a save based on an older version is merged with what
// landed since when the two changed different fields (recursively in mappings, and in lists of named
// entries such as columns when both kept the same names in the same order); a field both changed
// differently is a conflict, never a silent overwrite.
import { isDeepStrictEqual } from 'node:util';

export type FieldMerge = { ok: true; value: Record<string, unknown> } | { ok: false; conflicts: string[] };

const IDENTITY_KEYS = ['name', 'id', 'question', 'filter'];
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merges `mine` (based on `base`) with `current`; conflicts are dotted field paths. */
export function mergeFields(base: Record<string, unknown>, current: Record<string, unknown>, mine: Record<string, unknown>): FieldMerge {
  const conflicts: string[] = [];
  const value = merge3(base, current, mine, '', conflicts) as Record<string, unknown>;
  return conflicts.length > 0 ? { ok: false, conflicts } : { ok: true, value };
}

function merge3(base: unknown, current: unknown, mine: unknown, path: string, conflicts: string[]): unknown {
  if (isDeepStrictEqual(current, mine)) return current;
  if (isDeepStrictEqual(base, current)) return mine;
  if (isDeepStrictEqual(base, mine)) return current;
  if (isMap(base) && isMap(current) && isMap(mine)) {
    const out: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(current), ...Object.keys(mine)])) {
      const v = merge3(base[key], current[key], mine[key], path ? `${path}.${key}` : key, conflicts);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  const names = [base, current, mine].map(identities);
  if (names[0] && names.every((n) => isDeepStrictEqual(n, names[0]))) {
    return (current as unknown[]).map((c, i) => merge3((base as unknown[])[i], c, (mine as unknown[])[i], `${path}[${names[0]![i]}]`, conflicts));
  }
  conflicts.push(path || '(item)');
  return current;
}

/** The identity of each entry of a list of named mappings, or undefined for any other list. */
function identities(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const key = IDENTITY_KEYS.find((k) => v.length > 0 && v.every((e) => isMap(e) && typeof e[k] === 'string'));
  return key ? v.map((e) => (e as Record<string, string>)[key]!) : undefined;
}
