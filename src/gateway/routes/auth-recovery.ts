// Magic links and self-service MFA recovery: public endpoints that answer without revealing accounts.
import { z } from 'zod';
import { consumeMagicLink } from '../../auth/account/magic-link.ts';
import { consumeMfaRecovery, mfaRecoveryInfo, requestMfaRecovery } from '../../auth/mfa/self-recovery.ts';
import { accountDeps } from '../../compose/account-deps.ts';
import { clientInfo } from '../client-info.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { signInAnswer, TokenResponse } from './auth.ts';
import { AccessClearedResponse } from './auth-mfa.ts';

const Email = z.string().trim().min(3).max(320).regex(/^[^\s@]+@[^\s@]+$/, 'Invalid email address');
const Token = z.string().min(1).max(512);

export function authRecoveryRoutes(s: Services) {
  const deps = accountDeps(s);
  return [
    route({
      method: 'POST',
      path: '/api/auth/magic_link/request',
      operationId: 'magic_link_request',
      summary: 'Mails a single-use sign-in link and code (same answer and time whether the account exists; 429 past the hourly mail limits)',
      tags: ['auth'],
      auth: 'none',
      status: 202,
      body: z.object({ email: Email }),
      response: z.object({ status: z.string() }),
      handler: async ({ body, ctx }) => {
        await s.accountMail.request('magic_link', body.email, clientInfo(ctx));
        return { status: 'sent_if_account_exists' };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/magic_link/consume',
      operationId: 'magic_link_consume',
      summary: 'Signs in with a magic link token, or the fallback code with the email; MFA step when enabled',
      tags: ['auth'],
      auth: 'none',
      body: z.union([z.object({ token: Token }), z.object({ email: Email, code: z.string().trim().regex(/^\d{8}$/, 'Code must be 8 digits') })]),
      response: TokenResponse,
      handler: async ({ body, ctx }) => signInAnswer(s, ctx, await consumeMagicLink(deps, body, clientInfo(ctx))),
    }),
    route({
      method: 'POST',
      path: '/api/auth/mfa/recovery/request',
      operationId: 'mfa_recovery_request',
      summary: 'Starts self-service MFA recovery with the pending MFA token (and the password for password accounts)',
      tags: ['mfa'],
      auth: 'none',
      status: 202,
      body: z.object({ mfa_token: z.string().min(1).max(4096), password: z.string().min(1).max(1024).optional() }),
      response: z.object({ status: z.string() }),
      handler: async ({ body, ctx }) => {
        await requestMfaRecovery(deps, { mfaToken: body.mfa_token, password: body.password }, clientInfo(ctx));
        return { status: 'recovery_mail_sent' };
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/mfa/recovery/info',
      operationId: 'mfa_recovery_info',
      summary: 'What a recovery token stands for: account email, original address, user agent and time',
      tags: ['mfa'],
      auth: 'none',
      query: z.object({ token: Token }),
      response: z.object({ email: z.string(), ip: z.string(), user_agent: z.string(), requested_at: z.number(), expires_at: z.number() }),
      handler: ({ query }) => mfaRecoveryInfo(deps, query.token),
    }),
    route({
      method: 'POST',
      path: '/api/auth/mfa/recovery/consume',
      operationId: 'mfa_recovery_consume',
      summary: "Spends a recovery token: removes MFA, signs the user out everywhere and clears their access tokens",
      description: 'Bumps token_version (every session ends) and revokes every API, CLI and MCP token of the user and every OAuth grant (connected MCP client); the answer and the audit entry say so.',
      tags: ['mfa'],
      auth: 'none',
      body: z.object({ token: Token }),
      response: AccessClearedResponse,
      handler: async ({ body, ctx }) => ({ status: 'mfa_removed', ...(await consumeMfaRecovery(deps, body.token, clientInfo(ctx))) }),
    }),
  ];
}
