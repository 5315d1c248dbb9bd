// CSRF tokens for server-rendered forms, bound to the signed-in session (no extra cookie needed):
// HMAC(key, purpose + session + form subject). A page from another site cannot compute one.
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './compare.ts';

function mac(key: string, parts: string[]): string {
  // A derived key keeps these MACs apart from anything else signed with the same secret.
  const derived = createHmac('sha256', key).update('sextant-csrf-v1').digest();
  return createHmac('sha256', derived).update(parts.join('\0')).digest('base64url');
}

/** The CSRF token for a form: `purpose` names the form, `binding` the session (and subject) it is for. */
export function csrfToken(key: string, purpose: string, binding: string[]): string {
  return mac(key, [purpose, ...binding]);
}

/** True when `token` is the CSRF token of that form for that binding (constant-time). */
export function checkCsrfToken(key: string, purpose: string, binding: string[], token: string | undefined): boolean {
  if (typeof token !== 'string' || token.length === 0) return false;
  return constantTimeEqual(token, mac(key, [purpose, ...binding]));
}
