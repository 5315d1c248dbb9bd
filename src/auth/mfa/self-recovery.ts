// Self-service MFA recovery for a user who lost the device: after the first factor (pending MFA
// token), password users re-enter the password, magic-link users rely on the pending token; SSO and
// unclassified passwordless identities must ask an admin. A mailed, single-use token then wipes MFA.
import { verifyPassword } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from '../account/account-deps.ts';
import { consumeAccountToken, issueAccountTokenWrites, peekAccountToken, revokeAccountTokensQuery } from '../account/account-tokens.ts';
import { writeAudit } from '../audit.ts';
import { getUser, type UserRow } from '../directory.ts';
import { fieldRequired, InvalidAccountToken, MfaNotEnabled, MfaRecoveryIneligible, SecondFactorRejected } from '../errors.ts';
import { mfaRecoveryAdminMail, mfaRecoveryMail, mfaRemovedMail } from '../account/mails.ts';
import { attemptKeys, clearAccountFailures, consumeMailQuota, limited } from '../credentials/rate-limit.ts';
import { userOfMfaToken } from '../credentials/sign-in.ts';
import { wipeMfa } from './second-factor.ts';

export const MFA_RECOVERY_TTL_MS = 3600_000;

export interface RecoveryInfo {
  email: string;
  ip: string;
  user_agent: string;
  requested_at: number;
  expires_at: number;
}

/** Checks eligibility and mails a recovery link to the user; admins are told. */
export async function requestMfaRecovery(deps: AccountDeps, input: { mfaToken: string; password?: string | undefined }, client: ClientInfo): Promise<void> {
  const { user, orgId, factor } = await userOfMfaToken(deps, input.mfaToken);
  if (!user.totp_enabled_at) throw new MfaNotEnabled();
  if (user.password_hash) {
    if (!input.password) throw fieldRequired('password', 'Re-enter your password');
    await limited(deps.db, deps.clock, attemptKeys(user.id, client.ip), async () => {
      if (!(await verifyPassword(input.password ?? '', user.password_hash!))) throw new SecondFactorRejected('password');
    });
    await clearAccountFailures(deps.db, deps.clock, user.id, client.ip);
  } else if (!(user.identity_kind === 'magic_link' && factor === 'magic_link')) {
    throw new MfaRecoveryIneligible();
  }
  // The user and every admin get mail: flood-limited like every account mail.
  await consumeMailQuota(deps.db, deps.clock, { email: user.email, ip: client.ip }, deps.mailLimits);
  const data = { ip: client.ip, user_agent: client.userAgent, requested_at: deps.clock.now(), org_id: orgId };
  const { value: token, writes } = issueAccountTokenWrites(deps.store, deps.clock, { purpose: 'mfa_recovery', userId: user.id, ttlMs: MFA_RECOVERY_TTL_MS, data });
  await deps.store.batch([revokeAccountTokensQuery(deps.store, deps.clock, user.id, 'mfa_recovery'), ...writes]);
  await writeAudit(deps, { action: 'mfa_recovery_requested', userId: user.id, orgId, ip: client.ip, data: { ip: client.ip, user_agent: client.userAgent } });
  deps.mailer.enqueue(mfaRecoveryMail(deps.baseUrl, user.email, token, client));
  await notifyAdmins(deps, orgId, user, 'requested');
}

/** What a recovery token stands for, without spending it. */
export async function mfaRecoveryInfo(deps: AccountDeps, token: string): Promise<RecoveryInfo> {
  const row = await peekAccountToken(deps.store, deps.clock, 'mfa_recovery', token);
  const user = row && (await getUser(deps.store, row.user_id));
  if (!row || !user) throw new InvalidAccountToken();
  const data = JSON.parse(row.data) as { ip: string; user_agent: string; requested_at: number };
  return { email: user.email, ip: data.ip, user_agent: data.user_agent, requested_at: data.requested_at, expires_at: row.expires_at };
}

/** Spends a recovery token: MFA wiped, every session ended, audit and notifications. */
export async function consumeMfaRecovery(deps: AccountDeps, token: string, client: ClientInfo): Promise<void> {
  const row = await consumeAccountToken(deps.store, deps.clock, 'mfa_recovery', token);
  const user = row && (await getUser(deps.store, row.user_id));
  if (!row || !user) throw new InvalidAccountToken();
  const orgId = (JSON.parse(row.data) as { org_id?: string }).org_id ?? null;
  await wipeMfa(deps, user.id, { endSessions: true });
  await writeAudit(deps, { action: 'mfa_recovery_completed', userId: user.id, orgId, ip: client.ip, data: { ip: client.ip, user_agent: client.userAgent } });
  deps.mailer.enqueue(mfaRemovedMail(user.email));
  if (orgId) await notifyAdmins(deps, orgId, user, 'completed');
}

/** Mails every active admin of the organization (and of its base organization, for a workspace) but the user. */
async function notifyAdmins(deps: AccountDeps, orgId: string, user: UserRow, what: 'requested' | 'completed'): Promise<void> {
  const { db } = deps.store;
  const orgs = db
    .selectFrom('organizations')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', orgId), eb('id', '=', db.selectFrom('organizations').select('base_org_id').where('id', '=', orgId))]));
  const admins = await deps.store.all(
    db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('u.email')
      .distinct()
      .where('m.role', '=', 'admin')
      .where('u.disabled_at', 'is', null)
      .where('u.id', '!=', user.id)
      .where('m.org_id', 'in', orgs),
  );
  for (const { email } of admins) deps.mailer.enqueue(mfaRecoveryAdminMail(email, user.email, what));
}
