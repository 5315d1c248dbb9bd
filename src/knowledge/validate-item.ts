// A write is checked against its kind's schema; a failure is a 422 naming the file and the field.
import type { z } from 'zod';
import { invalidFile } from './errors.ts';
import { normalizeIdFields } from './item-id.ts';
import { checkItemShape } from './item-limits.ts';
import { KIND_DEFS, type Kind } from './kinds.ts';

/**
 * Validates an item for the file of `id` (depth and size limits first, id fields in Unicode form C);
 * returns the value to write (schema key order first).
 */
export function validateItem(kind: Kind, id: string, raw: unknown, loc: (string | number)[] = ['body']): Record<string, unknown> {
  checkItemShape(raw, loc);
  const data = normalizeIdFields(kind, raw);
  const def = KIND_DEFS[kind];
  const file = def.pathOf(id);
  const result = def.schema.safeParse(data);
  if (!result.success) throw invalidFile(file, result.error.issues.flatMap((i) => toIssues(i, loc, data)));
  const named = def.idOfData(result.data);
  if (named && named.id !== id) {
    throw invalidFile(file, [{ loc: [...loc, named.field], msg: `does not match the file name (expected id ${id}, content names ${named.id})`, type: 'value_error' }]);
  }
  return result.data;
}

/** An issue per field: an unknown-keys issue names each key, so the 422 points at the field to remove. */
function toIssues(issue: z.core.$ZodIssue, loc: (string | number)[], root: unknown) {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ loc: [...loc, ...path, key], msg: 'unknown field', type: 'extra_forbidden' }));
  let v: unknown = root;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_union') && v === undefined;
  return [{ loc: [...loc, ...path], msg: missing ? 'Field required' : issue.message, type: missing ? 'missing' : issue.code }];
}
