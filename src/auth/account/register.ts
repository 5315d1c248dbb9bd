// Registration and email verification. Every answer is the same whether the address is known, so
// these endpoints never reveal who has an account; the mailbox owner learns the truth by mail.
import { sql } from 'kysely';
import { hashPassword, newId } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from './account-deps.ts';
import { consumeAccountToken, issueAccountTokenWrites, revokeAccountTokensQuery } from './account-tokens.ts';
import type { ComposedMail } from './composed-mail.ts';
import { writeAudit } from '../audit.ts';
import { consumeMailQuota } from '../credentials/rate-limit.ts';
import { auditEntryQuery } from '../audit-log/write-audit.ts';
import { findUserByEmail, membershipUpsert, organizationInsert, userInsert, type UserRow } from '../directory.ts';
import { InvalidAccountToken } from '../errors.ts';
import { alreadyRegisteredMail, verificationMail } from './mails.ts';
import { orgSettingsOf } from '../members/org-settings-rows.ts';
import { orgForEmailDomain } from './org-from-email.ts';
import { assertPasswordStrength } from '../credentials/password-policy.ts';

export const VERIFY_TTL_MS = 24 * 3600_000;

/** Creates an account (or, for a known address, mails its owner) and sends the verification mail. */
export async function registerAccount(deps: AccountDeps, input: { email: string; password: string; name?: string | undefined }, client: ClientInfo): Promise<void> {
  const email = input.email.trim().toLowerCase();
  assertPasswordStrength(input.password, email);
  // Both answers mail the address, so registration is flood-limited like every account mail.
  await consumeMailQuota(deps.db, deps.clock, { email, ip: client.ip }, deps.mailLimits);
  // Hash before looking the address up so both paths take the same time.
  const passwordHash = await hashPassword(input.password, deps.bcryptCost);
  const existing = await findUserByEmail(deps.store, email);
  if (existing) {
    deps.mailer.enqueue(alreadyRegisteredMail(deps.baseUrl, email));
    return;
  }
  const domainOrg = await orgForEmailDomain(deps.store, email);
  const created = await createAccount(deps, { email, name: input.name ?? email.split('@')[0] ?? '', passwordHash }, domainOrg?.id);
  // The token is stored before its mail is queued; a crash in between leaves an account whose owner
  // asks for the verification mail again.
  const mail = verificationMailFor(deps, created)!;
  await deps.store.batch(mail.writes);
  deps.mailer.enqueue(mail.message);
}

/**
 * The user, their membership of the organization serving their domain (or of a new one they
 * administer) and the audit entry, in one batch.
 */
async function createAccount(deps: AccountDeps, user: { email: string; name: string; passwordHash: string }, domainOrgId: string | undefined): Promise<UserRow> {
  const userId = newId();
  const orgId = domainOrgId ?? newId(8);
  // No organization serves the domain: the new user starts their own and administers it.
  const role = domainOrgId ? orgSettingsOf(deps.db, domainOrgId).join_default_role : 'admin';
  const newOrg = domainOrgId ? [] : [organizationInsert(deps.store, deps.clock, { id: orgId, name: `${user.name || user.email}'s organization` })];
  const done = await deps.store.batch([
    userInsert(deps.store, deps.clock, { id: userId, ...user }),
    ...newOrg,
    membershipUpsert(deps.store, deps.clock, { userId, orgId, role }),
    auditEntryQuery(deps.store, { action: 'registered', userId, orgId: domainOrgId ?? null }, deps.clock.now()),
  ]);
  const row = done.ok ? (done.results[0]?.rows[0] as UserRow | undefined) : undefined;
  if (!row) throw new Error('the user insert returned no row');
  return row;
}

/** The verification mail of an unverified, enabled account (older links voided); undefined otherwise. */
export function verificationMailFor(deps: AccountDeps, user: UserRow | undefined): ComposedMail | undefined {
  if (!user || user.email_verified_at !== null || user.disabled_at !== null) return undefined;
  const token = issueAccountTokenWrites(deps.store, deps.clock, { purpose: 'verify_email', userId: user.id, ttlMs: VERIFY_TTL_MS });
  return { writes: [revokeAccountTokensQuery(deps.store, deps.clock, user.id, 'verify_email'), ...token.writes], message: verificationMail(deps.baseUrl, user.email, token.value) };
}

/** Marks the address verified with a single-use token. */
export async function verifyEmail(deps: AccountDeps, token: string): Promise<void> {
  const row = await consumeAccountToken(deps.store, deps.clock, 'verify_email', token);
  if (!row) throw new InvalidAccountToken();
  await deps.store.run(deps.store.db.updateTable('users').set({ email_verified_at: sql`coalesce(email_verified_at, ${deps.clock.now()})` }).where('id', '=', row.user_id));
  await writeAudit(deps, { action: 'email_verified', userId: row.user_id });
}
