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

/** 422 when `data` nests deeper than MAX_DEPTH (naming where), 413 when it holds more than MAX_NODES values. */
export function checkItemShape(data: unknown, loc: (string | number)[] = ['body']): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: data, path: [] }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (++nodes > MAX_NODES) throw new ItemTooLarge(`more than ${MAX_NODES} values`);
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_DEPTH) {
      throw new ValidationFailed([{ loc: [...loc, ...path], msg: `nested deeper than ${MAX_DEPTH} levels`, type: 'value_error' }]);
    }
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    for (const [k, v] of entries) stack.push({ value: v, path: [...path, k] });
  }
}

/** 413 when a rendered file is over MAX_ITEM_BYTES. */
export function checkItemSize(text: string): string {
  if (Buffer.byteLength(text) > MAX_ITEM_BYTES) throw new ItemTooLarge(`its file would be over ${MAX_ITEM_BYTES} bytes`);
  return text;
}
