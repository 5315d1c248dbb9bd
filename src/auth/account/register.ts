// Registration and email verification. Every answer is the same whether the address is known, so
// these endpoints never reveal who has an account; the mailbox owner learns the truth by mail.
import type { MailMessage } from '../../mail/index.ts';
import { hashPassword } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from './account-deps.ts';
import { consumeAccountToken, issueAccountToken, revokeAccountTokens } from './account-tokens.ts';
import { writeAudit } from '../audit.ts';
import { consumeMailQuota } from '../credentials/rate-limit.ts';
import { createOrganization, createUser, findUserByEmail, setMembership, type UserRow } from '../directory.ts';
import { InvalidAccountToken } from '../errors.ts';
import { alreadyRegisteredMail, verificationMail } from './mails.ts';
import { orgSettingsOf } from '../members/org-settings-rows.ts';
import { orgForEmailDomain } from './org-from-email.ts';
import { assertPasswordStrength } from '../credentials/password-policy.ts';
import { transact } from '../../store/index.ts';

export const VERIFY_TTL_MS = 24 * 3600_000;

/** Creates an account (or, for a known address, mails its owner) and sends the verification mail. */
export async function registerAccount(deps: AccountDeps, input: { email: string; password: string; name?: string | undefined }, client: ClientInfo): Promise<void> {
  const email = input.email.trim().toLowerCase();
  assertPasswordStrength(input.password, email);
  // Both answers mail the address, so registration is flood-limited like every account mail.
  await consumeMailQuota(deps.db, deps.clock, { email, ip: client.ip }, deps.mailLimits);
  // Hash before looking the address up so both paths take the same time.
  const passwordHash = await hashPassword(input.password, deps.bcryptCost);
  const existing = findUserByEmail(deps.db, email);
  if (existing) {
    deps.mailer.enqueue(alreadyRegisteredMail(deps.baseUrl, email));
    return;
  }
  transact(deps.db, () => {
    const created = createUser(deps.db, deps.clock, { email, name: input.name ?? email.split('@')[0] ?? '', passwordHash });
    const domainOrg = orgForEmailDomain(deps.db, email);
    if (domainOrg) {
      setMembership(deps.db, deps.clock, { userId: created.id, orgId: domainOrg.id, role: orgSettingsOf(deps.db, domainOrg.id).join_default_role });
    } else {
      // No organization serves the domain: the new user starts their own and administers it.
      const org = createOrganization(deps.db, deps.clock, { name: `${created.name || email}'s organization` });
      setMembership(deps.db, deps.clock, { userId: created.id, orgId: org.id, role: 'admin' });
    }
    writeAudit(deps, { action: 'registered', userId: created.id, orgId: domainOrg?.id ?? null });
    deps.mailer.enqueue(verificationMailFor(deps, created)!);
  });
}

/** The verification mail of an unverified, enabled account (older links voided); undefined otherwise. */
export function verificationMailFor(deps: AccountDeps, user: UserRow | undefined): MailMessage | undefined {
  if (!user || user.email_verified_at !== null || user.disabled_at !== null) return undefined;
  revokeAccountTokens(deps.db, deps.clock, user.id, 'verify_email');
  const token = issueAccountToken(deps.db, deps.clock, { purpose: 'verify_email', userId: user.id, ttlMs: VERIFY_TTL_MS });
  return verificationMail(deps.baseUrl, user.email, token);
}

/** Marks the address verified with a single-use token. */
export function verifyEmail(deps: AccountDeps, token: string): void {
  const row = consumeAccountToken(deps.db, deps.clock, 'verify_email', token);
  if (!row) throw new InvalidAccountToken();
  deps.db.prepare('UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ?').run(deps.clock.now(), row.user_id);
  writeAudit(deps, { action: 'email_verified', userId: row.user_id });
}
