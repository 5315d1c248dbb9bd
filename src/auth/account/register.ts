// Registration and email verification. Every answer is the same whether the address is known, so
// these endpoints never reveal who has an account; the mailbox owner learns the truth by mail.
import { sql } from 'kysely';
import { hashPassword } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from './account-deps.ts';
import { issueAccountTokenWrites, peekAccountToken, revokeAccountTokensQuery, spendAccountTokenQuery } from './account-tokens.ts';
import type { ComposedMail } from './composed-mail.ts';
import { writeAudit } from '../audit.ts';
import { auditEntryQuery } from '../audit-log/write-audit.ts';
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
    await deps.mailer.enqueue(alreadyRegisteredMail(deps.baseUrl, email));
    return;
  }
  const domainOrg = await orgForEmailDomain(deps.store, email);
  const created = transact(deps.db, () => {
    const user = createUser(deps.db, deps.clock, { email, name: input.name ?? email.split('@')[0] ?? '', passwordHash });
    if (domainOrg) {
      setMembership(deps.db, deps.clock, { userId: user.id, orgId: domainOrg.id, role: orgSettingsOf(deps.db, domainOrg.id).join_default_role });
    } else {
      // No organization serves the domain: the new user starts their own and administers it.
      const org = createOrganization(deps.db, deps.clock, { name: `${user.name || email}'s organization` });
      setMembership(deps.db, deps.clock, { userId: user.id, orgId: org.id, role: 'admin' });
    }
    writeAudit(deps, { action: 'registered', userId: user.id, orgId: domainOrg?.id ?? null });
    return user;
  });
  // A crash before the token and its mail are stored leaves an account whose owner asks for the verification mail again.
  const mail = verificationMailFor(deps, created)!;
  const staged = deps.mailer.stage(mail.message);
  await deps.store.batch([...mail.writes, staged.query]);
  staged.committed();
}

/** The verification mail of an unverified, enabled account (older links voided); undefined otherwise. */
export function verificationMailFor(deps: AccountDeps, user: UserRow | undefined): ComposedMail | undefined {
  if (!user || user.email_verified_at !== null || user.disabled_at !== null) return undefined;
  const token = issueAccountTokenWrites(deps.store, deps.clock, { purpose: 'verify_email', userId: user.id, ttlMs: VERIFY_TTL_MS });
  return { writes: [revokeAccountTokensQuery(deps.store, deps.clock, user.id, 'verify_email'), ...token.writes], message: verificationMail(deps.baseUrl, user.email, token.value) };
}

/** Marks the address verified with a single-use token, spent in the batch that verifies and audits. */
export async function verifyEmail(deps: AccountDeps, token: string): Promise<void> {
  const x = deps.store;
  const live = await peekAccountToken(x, deps.clock, 'verify_email', token);
  if (!live) throw new InvalidAccountToken();
  const now = deps.clock.now();
  const done = await x.batch(
    [
      spendAccountTokenQuery(x, deps.clock, 'verify_email', token),
      x.db.updateTable('users').set({ email_verified_at: sql`coalesce(email_verified_at, ${now})` }).where('id', '=', live.user_id),
      auditEntryQuery(x, { action: 'email_verified', userId: live.user_id }, now),
    ],
    { require: [0] },
  );
  if (!done.ok) throw new InvalidAccountToken();
}
