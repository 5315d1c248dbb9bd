// Command-line device sign-in (interface part 3 "CLI device login", part 4). The CLI calls start,
// shows user_code and opens authorize_url; a signed-in person approves there (or via complete);
// the CLI polls until it receives its token, once.
import { z } from 'zod';
import { completeCliLogin, denyCliLogin, getCliLoginInfo, pollCliLogin, startCliLogin, type CliLoginDeps } from '../../auth/tokens/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Code = z.string().min(1).max(200);

const Started = z.object({
  code: z.string().describe('Secret one-time code the CLI keeps and polls with; never show it in a browser'),
  user_code: z.string().describe('Short code like BCDF-GHJK the person compares between terminal and browser'),
  authorize_url: z.string().describe('Page where a signed-in user approves; it carries its own browser code'),
  expires_in: z.number().int().describe('Seconds until the codes expire'),
  expires_at: z.string(),
  interval: z.number().int().describe('Seconds to wait between polls'),
});

const Info = z.object({ user_code: z.string(), expires_at: z.string() });

const Poll = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending'), interval: z.number().int(), expires_at: z.string() }),
  z.object({
    status: z.literal('complete'),
    token: z.string().describe('CLI token (scope api:full), returned exactly once'),
    token_id: z.string(),
    user_id: z.string(),
    email: z.string(),
    org_id: z.string(),
    scopes: z.array(z.string()),
  }),
]);

/** Dependencies of the CLI sign-in functions, from the services. */
export function cliLoginDeps(s: Services): CliLoginDeps {
  return { ...s.auth, store: s.executor, secretBox: s.secretBox, ttlMs: s.config.cliLoginTtlSeconds * 1000, baseUrl: s.config.baseUrl };
}

/** CLI device sign-in routes. */
export function cliLoginRoutes(s: Services) {
  const deps = cliLoginDeps(s);
  const tags = ['cli login'];
  return [
    route({
      method: 'POST', path: '/api/auth/cli/login/start', operationId: 'cli_login_start', tags, auth: 'none', response: Started,
      summary: 'Starts a CLI sign-in: a one-time poll code, the authorize URL and a short user_code',
      handler: () => startCliLogin(deps),
    }),
    route({
      method: 'GET', path: '/api/auth/cli/login/info', operationId: 'cli_login_info', tags, auth: 'user', query: z.object({ code: Code }),
      response: Info,
      summary: 'The user_code of a pending CLI sign-in (not who started it); 404 unknown, 410 expired, 409 decided',
      handler: ({ principal, query }) => getCliLoginInfo(deps, principal, query.code),
    }),
    route({
      method: 'POST', path: '/api/auth/cli/login/complete', operationId: 'cli_login_complete', tags, auth: 'user', body: z.object({ code: Code }),
      response: z.object({ status: z.literal('approved'), user_code: z.string() }),
      summary: "Approves a CLI sign-in: mints the caller's CLI token (revoking older ones) and holds it for the CLI's poll",
      handler: ({ principal, body }) => completeCliLogin(deps, principal, body.code),
    }),
    route({
      method: 'POST', path: '/api/auth/cli/login/deny', operationId: 'cli_login_deny', tags, auth: 'user', body: z.object({ code: Code }),
      response: z.object({ status: z.literal('denied') }),
      summary: 'Denies a CLI sign-in; the CLI is told at its next poll (403 CLI_LOGIN_DENIED)',
      handler: ({ principal, body }) => denyCliLogin(deps, principal, body.code),
    }),
    route({
      method: 'GET', path: '/api/auth/cli/login/poll', operationId: 'cli_login_poll', tags, auth: 'none', query: z.object({ code: Code }),
      response: Poll,
      summary: 'Polls a CLI sign-in: pending, then the token exactly once (record deleted); 410 expired, 403 denied, 404 unknown or claimed',
      handler: ({ query }) => pollCliLogin(deps, query.code),
    }),
  ];
}
