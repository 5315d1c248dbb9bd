// The auth domain, one room per job:
//   principal.ts, directory.ts, audit.ts, errors.ts   who acts (roles), the core tables, the audit log
//   credentials/   sign-in, sessions, JWTs, password policy, rate limits, authenticating a request
//   mfa/           second factor: enrolment, recovery codes, self-recovery
//   account/       registration, password reset, magic links, account mail, workspaces, email domains
//   tokens/        API, CLI and MCP tokens and the CLI sign-in flow
//   profile/       profile, personal memories, dismissed disclaimers
//   sso/           OpenID Connect sign-in
//   oauth/         the OAuth 2.1 authorization server for MCP clients (the Koa part is gateway/oauth)
export * from './principal.ts';
export * from './directory.ts';
export { markAudited, wasAudited, writeAudit } from './audit.ts';
export { accessInterruptedSince } from './audit-log/access-interrupted.ts';
export * from './errors.ts';
// credentials/
export { signJwt, verifyJwt, looksLikeJwt } from './credentials/jwt.ts';
export type { JwtClaims, JwtPurpose } from './credentials/jwt.ts';
export { authenticate, authenticateApiToken, principalFor, memberPrincipal, oauthPrincipal, InvalidApiToken, InvalidSession } from './credentials/authenticate.ts';
export type { AuthDeps, PresentedCredential } from './credentials/authenticate.ts';
export { startSession, sessionWrite, endSession, SESSION_TTL_SECONDS } from './credentials/sessions.ts';
export type { StartedSession } from './credentials/sessions.ts';
export { invalidateSessionsQueries } from './credentials/invalidate-sessions.ts';
export { safeNextPath } from './credentials/safe-next.ts';
export { assertPasswordStrength, PASSWORD_MIN_LENGTH } from './credentials/password-policy.ts';
export { passwordSignIn, mfaSignIn, completeFirstFactor, userOfMfaToken, signInOrg } from './credentials/sign-in.ts';
export type { SignInResult, FirstFactor } from './credentials/sign-in.ts';
export { embeddedUserLogin } from './credentials/embedded-login.ts';
// tokens/
export { insertTokenQuery, looksLikeApiToken, TOKEN_PREFIX } from './tokens/api-tokens.ts';
export type { ApiTokenRow, TokenKind } from './tokens/api-tokens.ts';
// account/
export type { AccountDeps, ClientInfo } from './account/account-deps.ts';
export { registerAccount, verifyEmail } from './account/register.ts';
export { createAccountMail, processAccountMailRequests } from './account/account-mail.ts';
export type { AccountMail, AccountMailKind } from './account/account-mail.ts';
export { confirmPasswordReset } from './account/reset-password.ts';
export { consumeMagicLink } from './account/magic-link.ts';
export { listWorkspaces, switchToWorkspace, switchToBaseOrg, setDefaultWorkspace } from './account/workspaces.ts';
export { orgFromEmail, orgForEmailDomain } from './account/org-from-email.ts';
// mfa/
export { setupMfa, confirmMfa } from './mfa/enroll.ts';
export { mfaStatus, disableMfa, regenerateRecoveryCodes, adminResetMfa } from './mfa/manage.ts';
export { requestMfaRecovery, mfaRecoveryInfo, consumeMfaRecovery } from './mfa/self-recovery.ts';
// profile/
export { getProfile, updateProfile } from './profile/profile.ts';
export { listMemories, addMemory, editMemory, deleteMemory, titleFromContent } from './profile/memories.ts';
export { dismissedDisclaimers, dismissDisclaimer, restoreDisclaimer } from './profile/disclaimers.ts';
// sso/
export { startSsoLogin, finishSsoLogin } from './sso/sso-login.ts';
