// The one check of an item id before it becomes a file name: the kind's id shape, the length the
// routes accept, and git's rule for names (src/git/path-name.ts: control characters, `.`/`..`,
// `.git`, reserved device names, Unicode form). Ids are compared in Unicode form C, so an id typed
// with decomposed accents names the same file. A failure is a 422 naming the field the id came from.
import { pathProblem, segmentProblem } from '../git/index.ts';
import { ValidationFailed } from '../errors.ts';
import { KIND_DEFS, type Kind } from './kinds.ts';

/** Longest item id, as the item routes accept it in the path and the query. */
export const MAX_ID_LENGTH = 300;

/** Why `id` cannot name an item of `kind`, or undefined. */
export function idProblem(kind: Kind, id: string): string | undefined {
  if (id.length > MAX_ID_LENGTH) return `is longer than ${MAX_ID_LENGTH} characters`;
  const def = KIND_DEFS[kind];
  if (!def.validId(id)) return def.idRule;
  return pathProblem(def.pathOf(id));
}

/** The id in form C, or a 422 at `loc`. */
export function checkedId(kind: Kind, id: string, loc: (string | number)[]): string {
  const nfc = id.normalize('NFC');
  const problem = idProblem(kind, nfc);
  if (problem) throw new ValidationFailed([{ loc, msg: `invalid ${kind} id: ${problem}`, type: 'value_error' }]);
  return nfc;
}

/** The item's own id fields in form C (a copy; other fields are kept as written). */
export function normalizeIdFields(kind: Kind, data: unknown): unknown {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const f of KIND_DEFS[kind].idFields) if (typeof out[f] === 'string') out[f] = (out[f] as string).normalize('NFC');
  return out;
}

/** 422 on the first id field of the body whose text cannot be part of a file name. */
export function checkIdFields(kind: Kind, data: Record<string, unknown>): void {
  for (const f of KIND_DEFS[kind].idFields) {
    const v = data[f];
    const problem = typeof v === 'string' ? segmentProblem(`${v}.yaml`) ?? segmentProblem(v) : undefined;
    if (problem) throw new ValidationFailed([{ loc: ['body', f], msg: `cannot be part of a file name: ${problem}`, type: 'value_error' }]);
  }
}

/**
 * 422 naming every id field of the body that is absent or not text, for a kind whose id comes from its
 * content (a table's connection, schema and name): the caller left out a body field, not the query's id.
 */
export function requireIdFields(kind: Kind, data: Record<string, unknown>): void {
  const issues = KIND_DEFS[kind].idFields.flatMap((f) => {
    const v = data[f];
    if (typeof v === 'string') return [];
    return [v === undefined || v === null ? { loc: ['body', f], msg: 'Field required', type: 'missing' } : { loc: ['body', f], msg: 'Input should be a valid string', type: 'string_type' }];
  });
  if (issues.length > 0) throw new ValidationFailed(issues);
}
