import { ValidationFailed } from '../../errors.ts';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

// A short list of the passwords people pick first; length alone lets these through.
const COMMON = new Set(['password123', 'password1234', 'qwertyuiop', '1234567890', '0123456789', 'iloveyou123', 'letmein123', 'welcome123', 'changeme123', 'administrator']);

/** Enforces the minimum strength: length, some variety, not a common or email-derived password. */
export function assertPasswordStrength(password: string, email: string, field = 'password'): void {
  const fail = (msg: string) => new ValidationFailed([{ loc: ['body', field], msg, type: 'password_too_weak' }]);
  if (password.length < PASSWORD_MIN_LENGTH) throw fail(`Password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) throw fail(`Password must have at most ${PASSWORD_MAX_LENGTH} characters`);
  if (new Set(password).size < 5) throw fail('Password is too repetitive');
  const lower = password.toLowerCase();
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (COMMON.has(lower) || (local.length >= 4 && lower.includes(local))) throw fail('Password is too easy to guess');
}
