// Opaque, tamper-evident keyset cursors: base64url JSON plus a truncated HMAC-SHA256 made with the
// service's JWT key, bound to the user and organization it was issued to.
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../security/index.ts';
import { InvalidCursor } from '../errors.ts';

export interface CursorScope {
  key: string;
  userId: string;
  orgId: string;
}

const MAC_BYTES = 12;

function mac(scope: CursorScope, payload: string): string {
  return createHmac('sha256', scope.key)
    .update(`chat_history\0${scope.orgId}\0${scope.userId}\0${payload}`)
    .digest()
    .subarray(0, MAC_BYTES)
    .toString('base64url');
}

/** Encodes the last chat id seen on a page. */
export function encodeCursor(scope: CursorScope, lastId: number): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, k: lastId })).toString('base64url');
  return `${payload}.${mac(scope, payload)}`;
}

/** Decodes a cursor, or throws InvalidCursor (422) when it was altered or issued to someone else. */
export function decodeCursor(scope: CursorScope, cursor: string): number {
  const [payload, sig, extra] = cursor.split('.');
  if (!payload || !sig || extra !== undefined || !constantTimeEqual(sig, mac(scope, payload))) throw new InvalidCursor();
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { v?: unknown; k?: unknown };
    if (parsed.v === 1 && typeof parsed.k === 'number' && Number.isSafeInteger(parsed.k) && parsed.k > 0) return parsed.k;
  } catch {
    // falls through to the same answer as a bad signature
  }
  throw new InvalidCursor();
}
