// The one set of rules for user attributes, checked by the one write every path goes through
// (userAttributesQueries): the admin member pages and the row-security route alike. Row filters read
// `{{user.id}}`, `{{user.email}}`, `{{user.role}}` and `{{user.groups}}` from the account itself, so
// an attribute may not take one of those names, in any letter case.
import { ValidationFailed, type FieldIssue } from '../../errors.ts';

/** Placeholder names the account answers; never stored as attributes. */
export const RESERVED_ATTRIBUTES: readonly string[] = ['id', 'email', 'role', 'groups'];

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** At most this many attributes per member, each value at most MAX_VALUE characters. */
export const MAX_ATTRIBUTES = 100;
const MAX_VALUE = 1000;

/** Whether `name` is one the account answers (compared without letter case). */
export function isReservedAttribute(name: string): boolean {
  return RESERVED_ATTRIBUTES.includes(name.toLowerCase());
}

function nameIssue(name: string, value: unknown): string | undefined {
  if (!NAME.test(name)) return 'Attribute names are letters, digits and _, at most 64, not starting with a digit';
  if (isReservedAttribute(name)) return `${name} is reserved: row filters read it from the account`;
  if (typeof value !== 'string') return 'Attribute values are text';
  if (value.length > MAX_VALUE) return `Attribute values are at most ${MAX_VALUE} characters`;
  return undefined;
}

/** What is wrong with a set of attributes, located under `loc` (default the request body's `attributes`). */
export function attributeIssues(attributes: Record<string, unknown>, loc: (string | number)[] = ['body', 'attributes']): FieldIssue[] {
  const names = Object.keys(attributes);
  const issues = names.flatMap((name): FieldIssue[] => {
    const msg = nameIssue(name, attributes[name]);
    return msg ? [{ loc: [...loc, name], msg, type: 'value_error' }] : [];
  });
  if (names.length > MAX_ATTRIBUTES) issues.push({ loc, msg: `At most ${MAX_ATTRIBUTES} attributes`, type: 'value_error' });
  return issues;
}

/** 422 naming every attribute that breaks a rule; nothing is written then. */
export function checkAttributes(attributes: Record<string, unknown>): void {
  const issues = attributeIssues(attributes);
  if (issues.length > 0) throw new ValidationFailed(issues);
}
