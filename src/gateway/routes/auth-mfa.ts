// MFA enrollment and management (interface part 3, "MFA enrollment"); recovery routes live in auth-recovery.ts.
import { z } from 'zod';
import { confirmMfa, setupMfa } from '../../auth/mfa/enroll.ts';
import { adminResetMfa, disableMfa, mfaStatus, regenerateRecoveryCodes } from '../../auth/mfa/manage.ts';
import { accountDeps } from '../../compose/account-deps.ts';
import { clientInfo } from '../client-info.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { sessionAnswer } from './auth.ts';

const Code = z.string().trim().min(6).max(64);
const CodeAndPassword = z.object({ code: Code, password: z.string().min(1).max(1024).optional() });

/** The answer of an MFA reset or recovery: what it ended besides MFA. */
export const AccessClearedResponse = z.object({
  status: z.string(),
  sessions_ended: z.literal(true),
  access_tokens_cleared: z.literal(true).describe('Every API, CLI and MCP token revoked and every OAuth grant (connected MCP client) removed'),
  tokens_revoked: z.number().int(),
  oauth_grants_revoked: z.number().int(),
});

export function authMfaRoutes(s: Services) {
  const deps = accountDeps(s);
  return [
    route({
      method: 'POST',
      path: '/api/auth/mfa/setup',
      operationId: 'mfa_setup',
      summary: 'Starts MFA enrollment: a new pending secret and its otpauth URI',
      tags: ['mfa'],
      auth: 'user',
      alsoAccepts: ['enrollment'],
      body: z.object({}).optional(),
      response: z.object({ provisioning_uri: z.string(), secret: z.string() }),
      handler: ({ principal }) => setupMfa(deps, principal),
    }),
    route({
      method: 'POST',
      path: '/api/auth/mfa/confirm',
      operationId: 'mfa_confirm',
      summary: 'Activates MFA with the first code; returns 10 recovery codes once (and a session for an enrollment token)',
      tags: ['mfa'],
      auth: 'user',
      alsoAccepts: ['enrollment'],
      body: z.object({ code: Code }),
      response: z.object({ recovery_codes: z.array(z.string()), access_token: z.string().optional(), token_type: z.string().optional() }),
      handler: async ({ principal, body, ctx }) => {
        const done = await confirmMfa(deps, principal, body.code, clientInfo(ctx));
        return { recovery_codes: done.recoveryCodes, ...(done.session ? sessionAnswer(s, ctx, done.session) : {}) };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/mfa/disable',
      operationId: 'mfa_disable',
      summary: 'Turns MFA off: a TOTP or recovery code, plus the password when the user has one',
      tags: ['mfa'],
      auth: 'user',
      body: CodeAndPassword,
      response: z.object({ status: z.string() }),
      handler: async ({ principal, body, ctx }) => {
        await disableMfa(deps, principal, body, clientInfo(ctx));
        return { status: 'disabled' };
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/mfa/recovery_codes/regenerate',
      operationId: 'mfa_regenerate_recovery_codes',
      summary: 'Replaces the recovery codes (same checks as disable)',
      tags: ['mfa'],
      auth: 'user',
      body: CodeAndPassword,
      response: z.object({ recovery_codes: z.array(z.string()) }),
      handler: async ({ principal, body, ctx }) => ({ recovery_codes: await regenerateRecoveryCodes(deps, principal, body, clientInfo(ctx)) }),
    }),
    route({
      method: 'GET',
      path: '/api/auth/mfa/status',
      operationId: 'mfa_status',
      summary: 'MFA state of the caller',
      tags: ['mfa'],
      auth: 'user',
      response: z.object({
        enabled: z.boolean(),
        pending: z.boolean().describe('An enrollment was started and not confirmed'),
        enforced: z.boolean().describe('The organization requires MFA'),
        recovery_codes_remaining: z.number().int(),
        has_password: z.boolean().describe('Disabling and regenerating also need the password'),
      }),
      handler: ({ principal }) => mfaStatus(deps, principal),
    }),
    route({
      method: 'POST',
      path: '/api/auth/admin/users/{user_id}/mfa/reset',
      operationId: 'admin_reset_user_mfa',
      summary: "Removes a member's MFA, signs them out everywhere and clears their access tokens (admins of the user's organization only)",
      description: 'Bumps token_version (every session ends) and revokes every API, CLI and MCP token of the user and every OAuth grant (connected MCP client); the answer and the audit entry say so.',
      tags: ['mfa'],
      auth: 'user',
      role: 'admin',
      params: z.object({ user_id: z.string().min(1).max(100) }),
      response: AccessClearedResponse,
      handler: async ({ principal, params, ctx }) => ({ status: 'reset', ...(await adminResetMfa(deps, principal, params.user_id, clientInfo(ctx))) }),
    }),
  ];
}
