// Self-service MFA recovery for a user who lost the device: after the first factor (pending MFA
// token), password users re-enter the password, magic-link users rely on the pending token; SSO and
// unclassified passwordless identities must ask an admin. A mailed, single-use token then wipes MFA.
import { verifyPassword } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from '../account/account-deps.ts';
import { issueAccountTokenWrites, peekAccountToken, revokeAccountTokensQuery, spendAccountTokenQuery } from '../account/account-tokens.ts';
import { auditEntryQuery } from '../audit-log/write-audit.ts';
import { getUser, type UserRow } from '../directory.ts';
import { fieldRequired, InvalidAccountToken, MfaNotEnabled, MfaRecoveryIneligible, SecondFactorRejected } from '../errors.ts';
import { mfaRecoveryAdminMail, mfaRecoveryMail, mfaRemovedMail } from '../account/mails.ts';
import { consumeMailQuota } from '../credentials/rate-limit.ts';
import { throttledAttempt } from '../credentials/throttled-attempt.ts';
import { userOfMfaToken } from '../credentials/sign-in.ts';
import type { StagedMail } from '../../mail/index.ts';
import { ACCESS_CLEARED_AUDIT, resetMfaCount, resetMfaQueries, type AccessCleared } from './second-factor.ts';

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
    await throttledAttempt(deps, user.id, client, async () => {
      if (!(await verifyPassword(input.password ?? '', user.password_hash!))) throw new SecondFactorRejected('password');
    });
  } else if (!(user.identity_kind === 'magic_link' && factor === 'magic_link')) {
    throw new MfaRecoveryIneligible();
  }
  // The user and every admin get mail: flood-limited like every account mail.
  await consumeMailQuota(deps.store, deps.clock, { email: user.email, ip: client.ip }, deps.mailLimits);
  const x = deps.store;
  const data = { ip: client.ip, user_agent: client.userAgent, requested_at: deps.clock.now(), org_id: orgId };
  const { value: token, writes } = issueAccountTokenWrites(x, deps.clock, { purpose: 'mfa_recovery', userId: user.id, ttlMs: MFA_RECOVERY_TTL_MS, data });
  const mails = [deps.mailer.stage(mfaRecoveryMail(deps.baseUrl, user.email, token, client)), ...(await adminMails(deps, orgId, user, 'requested'))];
  const audit = { action: 'mfa_recovery_requested', userId: user.id, orgId, ip: client.ip, data: { ip: client.ip, user_agent: client.userAgent } };
  await x.batch([revokeAccountTokensQuery(x, deps.clock, user.id, 'mfa_recovery'), ...writes, auditEntryQuery(x, audit, deps.clock.now()), ...mails.map((m) => m.query)]);
  for (const m of mails) m.committed();
}

/** What a recovery token stands for, without spending it. */
export async function mfaRecoveryInfo(deps: AccountDeps, token: string): Promise<RecoveryInfo> {
  const row = await peekAccountToken(deps.store, deps.clock, 'mfa_recovery', token);
  const user = row && (await getUser(deps.store, row.user_id));
  if (!row || !user) throw new InvalidAccountToken();
  const data = JSON.parse(row.data) as { ip: string; user_agent: string; requested_at: number };
  return { email: user.email, ip: data.ip, user_agent: data.user_agent, requested_at: data.requested_at, expires_at: row.expires_at };
}

/**
 * Spends a recovery token: MFA wiped, every session ended, every access token cleared (API, CLI, MCP,
 * OAuth grants), audit and mail to the user and the admins, all in the batch that spends it, so of two
 * uses at once (on any replica) exactly one does anything.
 */
export async function consumeMfaRecovery(deps: AccountDeps, token: string, client: ClientInfo): Promise<AccessCleared> {
  const x = deps.store;
  const row = await peekAccountToken(x, deps.clock, 'mfa_recovery', token);
  const user = row && (await getUser(deps.store, row.user_id));
  if (!row || !user) throw new InvalidAccountToken();
  const orgId = (JSON.parse(row.data) as { org_id?: string }).org_id ?? null;
  const mails = [deps.mailer.stage(mfaRemovedMail(user.email)), ...(orgId ? await adminMails(deps, orgId, user, 'completed') : [])];
  const now = deps.clock.now();
  const audit = { action: 'mfa_recovery_completed', userId: user.id, orgId, ip: client.ip, data: { ip: client.ip, user_agent: client.userAgent, ...ACCESS_CLEARED_AUDIT } };
  const done = await x.batch(
    [spendAccountTokenQuery(x, deps.clock, 'mfa_recovery', token), ...resetMfaQueries(x, user.id, now), auditEntryQuery(x, audit, now), ...mails.map((m) => m.query)],
    { require: [0] },
  );
  if (!done.ok) throw new InvalidAccountToken();
  for (const m of mails) m.committed();
  return resetMfaCount(done.results, 1);
}

/** The mail to every active admin of the organization (and of its base organization, for a workspace) but the user, staged for a batch. */
async function adminMails(deps: AccountDeps, orgId: string, user: UserRow, what: 'requested' | 'completed'): Promise<StagedMail[]> {
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
  return admins.map(({ email }) => deps.mailer.stage(mfaRecoveryAdminMail(email, user.email, what)));
}
