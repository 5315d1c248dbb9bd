// Sign-in, sign-out and the account lifecycle endpoints (interface part 4, "Authentication and account").
import type { Context } from 'koa';
import { z } from 'zod';
import { cachedUser } from '../../auth/credentials/credential-cache.ts';
import type { Principal } from '../../auth/principal.ts';
import type { UserRow } from '../../auth/directory.ts';
import { fieldRequired } from '../../auth/errors.ts';
import { PASSWORD_MIN_LENGTH } from '../../auth/index.ts';
import { mfaSignIn, passwordSignIn, type SignInResult } from '../../auth/credentials/sign-in.ts';
import { endSession, type StartedSession } from '../../auth/credentials/sessions.ts';
import { registerAccount, verifyEmail } from '../../auth/account/register.ts';
import { confirmPasswordReset } from '../../auth/account/reset-password.ts';
import { accountDeps } from '../../compose/account-deps.ts';
import { clientInfo } from '../client-info.ts';
import { clearSessionCookie, setSessionCookie } from '../cookies.ts';
import { rememberSignedInDevice } from '../remembered-device.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { andThen } from '../../shared/settled.ts';

const Email = z.string().trim().min(3).max(320).regex(/^[^\s@]+@[^\s@]+$/, 'Invalid email address');
const Status = z.object({ status: z.string() });

const MeResponse = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  slack_title: z.string().describe('The profile field labelled Background'),
  org_id: z.string(),
  base_org_id: z.string(),
  role: z.enum(['user', 'modeler', 'admin']),
  permissions: z.array(z.string()),
  credential: z.string(),
  email_verified: z.boolean(),
  mfa_enabled: z.boolean(),
  has_password: z.boolean(),
  default_workspace_id: z.string().nullable(),
});

export const TokenResponse = z.object({
  access_token: z.string().optional(),
  token_type: z.string(),
  expires_in: z.number().optional(),
  mfa_required: z.boolean().optional(),
  mfa_token: z.string().optional(),
  mfa_enrollment_required: z.boolean().optional(),
  enrollment_token: z.string().optional(),
});

/** Sets the session cookie (and renews the remembered-device cookie) and shapes the access-token answer. */
export function sessionAnswer(s: Services, ctx: Context, session: StartedSession) {
  setSessionCookie(ctx, session.token, session.expiresAt - s.clock.now(), s.config.baseUrl.startsWith('https://'));
  rememberSignedInDevice(s, ctx, session.userId);
  return { access_token: session.token, token_type: 'bearer', expires_in: Math.round((session.expiresAt - s.clock.now()) / 1000) };
}

/** The answer to a completed first factor: a session, or what the next step needs. */
export function signInAnswer(s: Services, ctx: Context, result: SignInResult) {
  if (result.kind === 'session') return sessionAnswer(s, ctx, result.session);
  if (result.kind === 'mfa_required') return { mfa_required: true, mfa_token: result.mfaToken, token_type: 'mfa_pending', expires_in: result.expiresIn };
  return { mfa_enrollment_required: true, enrollment_token: result.enrollmentToken, token_type: 'bearer', expires_in: result.expiresIn };
}

export function authRoutes(s: Services) {
  const deps = accountDeps(s);
  const https = s.config.baseUrl.startsWith('https://');
  return [
    route({
      method: 'POST',
      path: '/api/auth/token',
      operationId: 'login_for_access_token',
      summary: 'Password sign-in (JSON or the OAuth2 password form); a session, or a pending MFA or enrollment token',
      description:
        'A wrong password or an unknown address answers 401 INVALID_CREDENTIALS alike. The right password of an account an admin deactivated answers 403 ACCESS_REMOVED, ' +
        'naming the organization and a few of its active admins (`data.org_name`, `data.admins`). Every refusal counts against the sign-in throttle (429).',
      tags: ['auth'],
      auth: 'none',
      bodyType: 'json_or_form',
      body: z.object({ email: Email.optional(), username: Email.optional(), password: z.string().min(1).max(1024), grant_type: z.string().optional() }),
      response: TokenResponse,
      handler: async ({ body, ctx }) => {
        const email = body.email ?? body.username;
        if (!email) throw fieldRequired('email');
        return signInAnswer(s, ctx, await passwordSignIn(deps, { email, password: body.password }, clientInfo(ctx)));
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/token/mfa',
      operationId: 'login_mfa',
      summary: 'Second sign-in step: pending MFA token plus a TOTP or recovery code',
      tags: ['auth'],
      auth: 'none',
      body: z.object({ mfa_token: z.string().min(1).max(4096), code: z.string().trim().min(6).max(64) }),
      response: TokenResponse,
      handler: async ({ body, ctx }) => sessionAnswer(s, ctx, await mfaSignIn(deps, { mfaToken: body.mfa_token, code: body.code }, clientInfo(ctx))),
    }),
    route({
      method: 'POST',
      path: '/api/auth/logout',
      operationId: 'logout',
      summary: 'Ends the current session and clears the cookie',
      tags: ['auth'],
      auth: 'user',
      body: z.object({}),
      response: Status,
      handler: async ({ principal, ctx }) => {
        if (principal?.sessionId) await endSession(s.auth, principal.sessionId);
        clearSessionCookie(ctx, https);
        return { status: 'logged_out' };
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/me',
      operationId: 'me',
      summary: 'The current user in the current organization',
      tags: ['auth'],
      auth: 'user',
      response: MeResponse,
      // Without a promise when the cache holds the user: every page load asks.
      handler: ({ principal }) => andThen(cachedUser(s.auth, principal.userId), (user) => meResponse(principal, user!)),
    }),
    route({
      method: 'GET',
      path: '/api/auth/password_policy',
      operationId: 'password_policy',
      summary: 'What a new password must be (the sign-up and reset forms say it from here, so the hint and the rule agree)',
      tags: ['auth'],
      auth: 'none',
      response: z.object({ min_length: z.number().int().describe('Fewest characters a new password may have') }),
      handler: () => ({ min_length: PASSWORD_MIN_LENGTH }),
    }),
    route({
      method: 'POST',
      path: '/api/auth/register',
      operationId: 'register',
      summary: 'Creates an account and mails a verification link (same answer for known addresses)',
      tags: ['auth'],
      auth: 'none',
      status: 202,
      body: z.object({ email: Email, password: z.string().min(1).max(1024), name: z.string().trim().max(200).optional() }),
      response: Status,
      handler: async ({ body, ctx }) => {
        await registerAccount(deps, body, clientInfo(ctx));
        return { status: 'verification_sent' };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/resend_verification_mail',
      operationId: 'resend_verification_mail',
      summary: 'Sends the verification mail again (same answer and time for every address; 429 past the hourly mail limits)',
      tags: ['auth'],
      auth: 'none',
      status: 202,
      body: z.object({ email: Email }),
      response: Status,
      handler: async ({ body, ctx }) => {
        await s.accountMail.request('verify_email', body.email, clientInfo(ctx));
        return { status: 'verification_sent' };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/verify',
      operationId: 'verify',
      summary: 'Verifies an email address with the token from the mail',
      tags: ['auth'],
      auth: 'none',
      body: z.object({ token: z.string().min(1).max(512) }),
      response: Status,
      handler: async ({ body }) => {
        await verifyEmail(deps, body.token);
        return { status: 'verified' };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/reset_password',
      operationId: 'reset_password',
      summary: 'Requests a reset mail ({email}) or sets a new password ({token, new_password})',
      tags: ['auth'],
      auth: 'none',
      body: z.union([z.object({ token: z.string().min(1).max(512), new_password: z.string().min(1).max(1024) }), z.object({ email: Email })]),
      response: Status,
      handler: async ({ body, ctx }) => {
        if ('token' in body) {
          await confirmPasswordReset(deps, { token: body.token, newPassword: body.new_password });
          return { status: 'password_changed' };
        }
        await s.accountMail.request('reset_password', body.email, clientInfo(ctx));
        return { status: 'reset_mail_sent' };
      },
    }),
  ];
}

function meResponse(p: Principal, user: UserRow): z.infer<typeof MeResponse> {
  return {
    user_id: user.id,
    email: user.email,
    name: user.name,
    slack_title: user.slack_title,
    org_id: p.orgId,
    base_org_id: p.baseOrgId,
    role: p.role,
    permissions: p.permissions,
    credential: p.credential,
    email_verified: user.email_verified_at !== null,
    mfa_enabled: user.totp_enabled_at !== null,
    has_password: user.password_hash !== null,
    default_workspace_id: user.default_workspace_id,
  };
}
