// Limits on an item's content, checked before any YAML is rendered: a 20,000-deep JSON body once
// overflowed the YAML writer's stack (a 500). The walk is iterative so the check itself cannot.
import { AppError, ValidationFailed } from '../errors.ts';

/** Deepest nesting of objects and lists in an item. */
export const MAX_DEPTH = 32;
/** Most values (objects, lists, scalars) in an item. */
export const MAX_NODES = 100_000;
/** Largest rendered YAML file of an item, bytes. */
export const MAX_ITEM_BYTES = 1024 * 1024;

export class ItemTooLarge extends AppError {
  constructor(what: string) {
    super('too_large', 'KNOWLEDGE_ITEM_TOO_LARGE', `The item is too large: ${what}`);
  }
}

/** A value met in the walk; its path is built from the parents only when it is reported. */
interface Visit {
  value: unknown;
  key: string | number;
  parent: Visit | undefined;
  depth: number;
}

function pathOf(v: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = v; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * 422 when `data` nests deeper than MAX_DEPTH (naming where), 413 when it holds more than MAX_NODES values.
 * Each value holds its parent, not a copy of its path: an import checks 5,000 items of ~150 values,
 * and a path per value was most of the check's time and garbage.
 */
export function checkItemShape(data: unknown, loc: (string | number)[] = ['body']): void {
  const stack: Visit[] = [{ value: data, key: '', parent: undefined, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (++nodes > MAX_NODES) throw new ItemTooLarge(`more than ${MAX_NODES} values`);
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) {
      throw new ValidationFailed([{ loc: [...loc, ...pathOf(visit)], msg: `nested deeper than ${MAX_DEPTH} levels`, type: 'value_error' }]);
    }
    if (Array.isArray(value)) value.forEach((v: unknown, i) => stack.push({ value: v, key: i, parent: visit, depth: depth + 1 }));
    else for (const [k, v] of Object.entries(value)) stack.push({ value: v, key: k, parent: visit, depth: depth + 1 });
  }
}

/** 413 when a rendered file is over MAX_ITEM_BYTES. */
export function checkItemSize(text: string): string {
  if (Buffer.byteLength(text) > MAX_ITEM_BYTES) throw new ItemTooLarge(`its file would be over ${MAX_ITEM_BYTES} bytes`);
  return text;
}
