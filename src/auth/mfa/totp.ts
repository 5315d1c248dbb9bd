// TOTP with otplib 13: verify() returns an always-truthy object, so `.valid` is what counts. A code
// is accepted once per time step: the last accepted step is advanced with a conditional UPDATE.
import { generateSecret, generateURI, verifySync } from 'otplib';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';
import type { UserRow } from '../directory.ts';

export const TOTP_ISSUER = 'Sextant';

/** A new base32 secret (20 bytes). */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// provisioning URI an authenticator app scans. */
export function totpUri(email: string, secret: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

/** The time step a code is valid for (current or previous step), or undefined. Malformed codes are just invalid. */
export function totpStep(secret: string, code: string, clock: Clock, afterTimeStep?: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const result = verifySync({
      secret,
      token: code,
      epoch: Math.floor(clock.now() / 1000),
      epochTolerance: [30, 0],
      ...(afterTimeStep !== undefined ? { afterTimeStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}

/** Checks a code against the user's active secret and spends its time step; true for exactly one concurrent caller. */
export function consumeTotp(deps: { db: Db; clock: Clock; secretBox: SecretBox }, user: UserRow, code: string): boolean {
  if (!user.totp_secret) return false;
  const step = totpStep(deps.secretBox.open(user.totp_secret), code, deps.clock, user.totp_last_step ?? undefined);
  if (step === undefined) return false;
  const info = deps.db
    .prepare('UPDATE users SET totp_last_step = ? WHERE id = ? AND totp_secret = ? AND (totp_last_step IS NULL OR totp_last_step < ?)')
    .run(step, user.id, user.totp_secret, step);
  return info.changes === 1;
}
