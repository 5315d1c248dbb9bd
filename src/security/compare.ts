import { createHash, timingSafeEqual } from 'node:crypto';

/** The one constant-time comparison of secrets: hashing first makes unequal lengths safe too. */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
