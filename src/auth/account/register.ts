// Registration and email verification. Every answer is the same whether the address is known, so
// these endpoints never reveal who has an account; the mailbox owner learns the truth by mail.
import { sql } from 'kysely';
import { hashPassword, newId } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from './account-deps.ts';
import { issueAccountTokenWrites, peekAccountToken, revokeAccountTokensQuery, spendAccountTokenQuery } from './account-tokens.ts';
import type { ComposedMail } from './composed-mail.ts';
import { consumeMailQuota } from '../credentials/rate-limit.ts';
import { auditEntryQuery } from '../audit-log/write-audit.ts';
import { findUserByEmail, membershipUpsert, organizationInsert, userInsert, type UserRow } from '../directory.ts';
import { InvalidAccountToken } from '../errors.ts';
import { alreadyRegisteredMail, verificationMail } from './mails.ts';
import { NEW_ORG_SETTINGS, readOrgSettings, saveOrgSettingsQuery } from '../members/org-settings-rows.ts';
import { orgForEmailDomain } from './org-from-email.ts';
import { assertPasswordStrength } from '../credentials/password-policy.ts';

export const VERIFY_TTL_MS = 24 * 3600_000;

/** Creates an account (or, for a known address, mails its owner) and sends the verification mail. */
export async function registerAccount(deps: AccountDeps, input: { email: string; password: string; name?: string | undefined }, client: ClientInfo): Promise<void> {
  const email = input.email.trim().toLowerCase();
  assertPasswordStrength(input.password, email);
  // Both answers mail the address, so registration is flood-limited like every account mail.
  await consumeMailQuota(deps.store, deps.clock, { email, ip: client.ip }, deps.mailLimits);
  // Hash before looking the address up so both paths take the same time.
  const passwordHash = await hashPassword(input.password, deps.bcryptCost);
  if (await findUserByEmail(deps.store, email)) return deps.mailer.enqueue(alreadyRegisteredMail(deps.baseUrl, email));
  const domainOrg = await orgForEmailDomain(deps.store, email);
  const created = await createAccount(deps, { email, name: input.name ?? email.split('@')[0] ?? '', passwordHash }, domainOrg?.id).then(
    () => true,
    async (err: unknown) => {
      // The address was registered at the same moment by another request (on any replica): its unique
      // index refused this one, which then answers as for any known address.
      if (await findUserByEmail(deps.store, email)) return false;
      throw err;
    },
  );
  if (!created) await deps.mailer.enqueue(alreadyRegisteredMail(deps.baseUrl, email));
}

/**
 * The user, their membership of the organization serving their domain (or of a new one they
 * administer), the audit entry, the verification link and its mail, in one batch.
 */
async function createAccount(deps: AccountDeps, user: { email: string; name: string; passwordHash: string }, domainOrgId: string | undefined): Promise<void> {
  const x = deps.store;
  const userId = newId();
  const orgId = domainOrgId ?? newId(8);
  // No organization serves the domain: the new user starts their own and administers it; its
  // production changes only through environments until an admin says otherwise.
  const role = domainOrgId ? (await readOrgSettings(x, domainOrgId)).join_default_role : 'admin';
  const newOrg = domainOrgId
    ? []
    : [organizationInsert(x, deps.clock, { id: orgId, name: `${user.name || user.email}'s organization` }), saveOrgSettingsQuery(orgId, NEW_ORG_SETTINGS, deps.clock.now())];
  const verification = verificationMailOf(deps, userId, user.email);
  const mail = deps.mailer.stage(verification.message);
  await x.batch([
    userInsert(x, deps.clock, { id: userId, ...user }),
    ...newOrg,
    membershipUpsert(x, deps.clock, { userId, orgId, role }),
    auditEntryQuery(x, { action: 'registered', userId, orgId: domainOrgId ?? null }, deps.clock.now()),
    ...verification.writes,
    mail.query,
  ]);
  mail.committed();
}

/** The verification mail of an unverified, enabled account (older links voided); undefined otherwise. */
export function verificationMailFor(deps: AccountDeps, user: UserRow | undefined): ComposedMail | undefined {
  if (!user || user.email_verified_at !== null || user.disabled_at !== null) return undefined;
  return verificationMailOf(deps, user.id, user.email);
}

function verificationMailOf(deps: AccountDeps, userId: string, email: string): ComposedMail {
  const token = issueAccountTokenWrites(deps.store, deps.clock, { purpose: 'verify_email', userId, ttlMs: VERIFY_TTL_MS });
  return { writes: [revokeAccountTokensQuery(deps.store, deps.clock, userId, 'verify_email'), ...token.writes], message: verificationMail(deps.baseUrl, email, token.value) };
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
