// The server-rendered page where a signed-in person compares the CLI's user_code and approves or
// denies the sign-in. Forms carry a CSRF token bound to the session and the code; without a session
// the page sends the person to sign in and back.
import type { Context } from 'koa';
import { z } from 'zod';
import type { Principal } from '../../auth/index.ts';
import { CliLoginNotFound, completeCliLogin, denyCliLogin, getCliLoginInfo } from '../../auth/tokens/index.ts';
import { AppError } from '../../errors.ts';
import { checkCsrfToken, csrfToken } from '../../security/index.ts';
import { resolvePrincipal } from '../credentials.ts';
import { CsrfRefused } from '../csrf.ts';
import { statusOf } from '../error-handler.ts';
import { renderAuthorizePage, renderMessagePage } from '../pages/cli-authorize-page.ts';
import { route, type RouteDef } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { cliLoginDeps } from './cli-login.ts';

const CSRF_PURPOSE = 'cli-authorize';
const Form = z.object({ code: z.string().min(1).max(200), csrf: z.string().max(200).optional() });

const OUTCOME: Record<string, [string, string]> = {
  CLI_LOGIN_NOT_FOUND: ['Sign-in link not valid', 'This sign-in link is unknown or was already used. Run the CLI login again.'],
  CLI_LOGIN_EXPIRED: ['Sign-in link expired', 'This sign-in link has expired. Run the CLI login again.'],
  CLI_LOGIN_ALREADY_DECIDED: ['Already decided', 'This CLI sign-in was already approved or denied.'],
  CSRF_TOKEN_INVALID: ['Request refused', 'The form was not valid (CSRF check failed). Reload the sign-in page and try again.'],
};

/** The signed-in browser session, or undefined (no cookie, expired, other credential kinds). */
async function browserSession(s: Services, ctx: Context): Promise<(Principal & { sessionId: string }) | undefined> {
  try {
    const p = await resolvePrincipal(s.auth, ctx, { auth: 'user' } as RouteDef);
    return p?.credential === 'session' && p.sessionId ? { ...p, sessionId: p.sessionId } : undefined;
  } catch {
    return undefined;
  }
}

function html(ctx: Context, body: string, status = 200): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

function toLogin(ctx: Context, code: string, status: 302 | 303): void {
  ctx.status = status;
  ctx.redirect(`/login?next=${encodeURIComponent(`/cli/authorize?code=${encodeURIComponent(code)}`)}`);
}

/** A typed failure as a page for a person: the status comes from the one error mapping. */
function failure(ctx: Context, err: unknown): void {
  if (!(err instanceof AppError) || !OUTCOME[err.code]) throw err;
  const [title, text] = OUTCOME[err.code]!;
  html(ctx, renderMessagePage(title, text), statusOf(err));
}

/** GET /cli/authorize and its approve/deny form posts. */
export function cliAuthorizeRoutes(s: Services) {
  const deps = cliLoginDeps(s);
  const key = s.config.secrets.jwtKey;
  const tags = ['pages'];
  const decide = (action: 'approve' | 'deny') =>
    route({
      method: 'POST', path: `/cli/authorize/${action}`, operationId: `cli_authorize_${action}`, tags, auth: 'none', produces: 'text/html',
      body: Form, bodyType: 'form',
      summary: `Approval page form: ${action} a CLI sign-in (session cookie and CSRF token required)`,
      handler: async ({ ctx, body }) => {
        const session = await browserSession(s, ctx);
        if (!session) return toLogin(ctx, body.code, 303);
        if (!checkCsrfToken(key, CSRF_PURPOSE, [session.sessionId, body.code], body.csrf)) {
          return failure(ctx, new CsrfRefused('token'));
        }
        try {
          if (action === 'approve') {
            await completeCliLogin(deps, session, body.code);
            return html(ctx, renderMessagePage('CLI signed in', 'You can close this window and return to your terminal.'));
          }
          await denyCliLogin(deps, session, body.code);
          return html(ctx, renderMessagePage('Sign-in denied', 'The CLI was not signed in. You can close this window.'));
        } catch (err) {
          return failure(ctx, err);
        }
      },
    });
  return [
    route({
      method: 'GET', path: '/cli/authorize', operationId: 'cli_authorize_page', tags, auth: 'none', produces: 'text/html',
      query: z.object({ code: z.string().max(200).optional() }),
      summary: 'Approval page of a CLI sign-in: shows the user_code to compare (redirects to /login without a session)',
      handler: async ({ ctx, query }) => {
        if (!query.code) return failure(ctx, new CliLoginNotFound());
        const session = await browserSession(s, ctx);
        if (!session) return toLogin(ctx, query.code, 302);
        try {
          const info = await getCliLoginInfo(deps, session, query.code);
          const csrf = csrfToken(key, CSRF_PURPOSE, [session.sessionId, query.code]);
          return html(ctx, renderAuthorizePage({ code: query.code, userCode: info.user_code, csrf, email: session.email }));
        } catch (err) {
          return failure(ctx, err);
        }
      },
    }),
    decide('approve'),
    decide('deny'),
  ];
}
