// Password hashes in the earlier format (scrypt), as the service wrote them before bcrypt became the
// one hasher: they must keep verifying and are rehashed at sign-in.
import { randomBytes, scryptSync } from 'node:crypto';

export function scryptHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 2 ** 14, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
}
