// Request validation with the route's zod schemas, reporting failures in FastAPI's HTTPValidationError
// shape: {"detail": [{"loc": ["query", "limit"], "msg": "...", "type": "..."}]}.
import type { z } from 'zod';
import { ValidationFailed, type FieldIssue } from '../errors.ts';

export type Location = 'path' | 'query' | 'body' | 'header';

/** Parses `value` with `schema`, or throws ValidationFailed with every issue located under `loc`. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, loc: Location): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationFailed(result.error.issues.map((issue) => toFieldIssue(issue, loc, value)));
}

function toFieldIssue(issue: z.core.$ZodIssue, loc: Location, root: unknown): FieldIssue {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  // A record's key refused (an attribute name): zod says only "Invalid key in record", with the key's
  // own refusal inside. The key is the last step of the path; its rule is what to tell.
  const inner = issue.code === 'invalid_key' ? issue.issues[0] : undefined;
  if (inner) return { loc: [loc, ...path], msg: `Invalid name: ${inner.message}`, type: issueType(inner) };
  // A field absent where it is needed: a type check on it, or a rule that requires it only in some
  // cases (saved questions need `sql` unless they name a chat) and says so in the words of the first.
  const required = issue.code === 'invalid_type' || (issue.code === 'custom' && issue.message === 'Field required');
  const missing = required && valueAt(root, path) === undefined;
  return {
    loc: [loc, ...path],
    msg: missing ? 'Field required' : issue.message,
    type: missing ? 'missing' : issueType(issue),
  };
}

function valueAt(root: unknown, path: (string | number)[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

// The nearest pydantic error type, so clients written for the FastAPI form keep working.
function issueType(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `${issue.expected}_type`;
    case 'too_small':
      return issue.origin === 'string' ? 'string_too_short' : issue.origin === 'array' ? 'too_short' : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'string' ? 'string_too_long' : issue.origin === 'array' ? 'too_long' : 'less_than_equal';
    case 'invalid_format':
      return 'string_pattern_mismatch';
    case 'invalid_value':
      return 'enum';
    case 'unrecognized_keys':
      return 'extra_forbidden';
    default:
      return 'value_error';
  }
}
