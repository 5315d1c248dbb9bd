// TOTP with otplib 13: verify() returns an always-truthy object, so `.valid` is what counts. A code
// is accepted once per time step: the last accepted step is advanced with a conditional UPDATE, whose
// row count decides the one winner among concurrent requests (on any replica).
import { generateSecret, generateURI, verifySync } from 'otplib';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../security/index.ts';
import type { SingleUseStore } from '../single-use-tables.ts';

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

/** The TOTP state a code is checked against. */
export interface TotpHolder {
  id: string;
  totp_secret: string | null;
  totp_last_step: number | null;
}

/** Checks a code against the user's active secret and spends its time step; true for exactly one concurrent caller. */
export async function consumeTotp(deps: { store: SingleUseStore; clock: Clock; secretBox: SecretBox }, user: TotpHolder, code: string): Promise<boolean> {
  if (!user.totp_secret) return false;
  const step = totpStep(deps.secretBox.open(user.totp_secret), code, deps.clock, user.totp_last_step ?? undefined);
  if (step === undefined) return false;
  return spendTotpStep(deps.store, user.id, user.totp_secret, step);
}

/** Records `step` as the user's last accepted one unless it (or a later one) already is, or the secret changed. */
export async function spendTotpStep(store: SingleUseStore, userId: string, secret: string, step: number): Promise<boolean> {
  const { changes } = await store.run(
    store.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where('totp_secret', '=', secret)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)])),
  );
  return changes === 1;
}
