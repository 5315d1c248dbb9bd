// The minimal server-rendered sign-in page: email and password, then the MFA code step. Sets the
// session cookie and returns only to same-origin paths. CSRF: a random cookie echoed in the form.
import type { Context } from 'koa';
import { z } from 'zod';
import { safeNextPath } from '../../auth/safe-next.ts';
import { mfaSignIn, passwordSignIn } from '../../auth/sign-in.ts';
import { AppError, RateLimited } from '../../errors.ts';
import { constantTimeEqual, newSecret } from '../../security/index.ts';
import { accountDeps, clientInfo } from '../account-deps.ts';
import { setSessionCookie } from '../cookies.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';

export const MFA_PENDING_COOKIE = 'sextant_mfa_pending';
const CSRF_COOKIE = 'sextant_login_csrf';

/** Keeps the pending MFA token in an HttpOnly cookie between the two sign-in steps of the page. */
export function setMfaPendingCookie(ctx: Context, token: string, maxAgeSeconds: number, secure: boolean): void {
  ctx.cookies.set(MFA_PENDING_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, maxAge: maxAgeSeconds * 1000, path: '/login', signed: false });
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, inner: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Sextant</title><style>body{font:16px system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}
.error{color:#b00020}</style></head><body><h1>${esc(title)}</h1>${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}${inner}</body></html>`;
}

function passwordForm(csrf: string, next: string, email = ''): string {
  return `<form method="post" action="/login"><input type="hidden" name="csrf" value="${esc(csrf)}"><input type="hidden" name="next" value="${esc(next)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(email)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`;
}

function mfaForm(csrf: string, next: string): string {
  return `<form method="post" action="/login/mfa"><input type="hidden" name="csrf" value="${esc(csrf)}"><input type="hidden" name="next" value="${esc(next)}">
<label for="code">Authenticator or recovery code</label><input id="code" name="code" autocomplete="one-time-code" required autofocus>
<button type="submit">Continue</button></form>`;
}

function messageOf(err: unknown): string {
  if (err instanceof RateLimited) return `Too many attempts. Try again in ${err.retryAfterSeconds} seconds.`;
  if (err instanceof AppError) return err.message;
  throw err;
}

export function loginPageRoutes(s: Services) {
  const deps = accountDeps(s);
  const secure = s.config.baseUrl.startsWith('https://');
  const csrfFor = (ctx: Context) => {
    const value = newSecret();
    ctx.cookies.set(CSRF_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure, maxAge: 30 * 60_000, path: '/login', signed: false });
    return value;
  };
  const render = (ctx: Context, status: number, html: string) => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = html;
  };
  const checkCsrf = (ctx: Context, sent: string) => {
    const cookie = ctx.cookies.get(CSRF_COOKIE);
    return !!cookie && constantTimeEqual(cookie, sent);
  };
  const Form = z.object({ csrf: z.string().max(200).default(''), next: z.string().max(2000).optional() });
  return [
    route({
      method: 'GET',
      path: '/login',
      operationId: 'login_page',
      summary: 'Sign-in page; `next` is a same-origin path to return to',
      tags: ['pages'],
      auth: 'none',
      query: z.object({ next: z.string().max(2000).optional() }),
      produces: 'text/html',
      handler: ({ query, ctx }) => {
        const next = safeNextPath(query.next);
        const csrf = csrfFor(ctx);
        if (ctx.cookies.get(MFA_PENDING_COOKIE)) return render(ctx, 200, page('Two-factor authentication', mfaForm(csrf, next)));
        render(ctx, 200, page('Sign in', passwordForm(csrf, next)));
      },
    }),
    route({
      method: 'POST',
      path: '/login',
      operationId: 'login_page_submit',
      summary: 'Sign-in form submission',
      tags: ['pages'],
      auth: 'none',
      bodyType: 'form',
      body: Form.extend({ email: z.string().max(320).default(''), password: z.string().max(1024).default('') }),
      produces: 'text/html',
      handler: async ({ body, ctx }) => {
        const next = safeNextPath(body.next);
        if (!checkCsrf(ctx, body.csrf)) return render(ctx, 403, page('Sign in', passwordForm(csrfFor(ctx), next), 'Your session expired. Please try again.'));
        try {
          const result = await passwordSignIn(deps, { email: body.email, password: body.password }, clientInfo(ctx));
          if (result.kind === 'session') {
            setSessionCookie(ctx, result.session.token, result.session.expiresAt - s.clock.now(), secure);
            ctx.status = 303;
            return ctx.redirect(next);
          }
          if (result.kind === 'mfa_required') {
            setMfaPendingCookie(ctx, result.mfaToken, result.expiresIn, secure);
            return render(ctx, 200, page('Two-factor authentication', mfaForm(csrfFor(ctx), next)));
          }
          return render(ctx, 403, page('Sign in', '<p>Your organization requires two-factor authentication. Enroll in the app first, then come back.</p>'));
        } catch (err) {
          render(ctx, err instanceof RateLimited ? 429 : 401, page('Sign in', passwordForm(csrfFor(ctx), next, body.email), messageOf(err)));
          if (err instanceof RateLimited) ctx.set('Retry-After', String(err.retryAfterSeconds));
        }
      },
    }),
    route({
      method: 'POST',
      path: '/login/mfa',
      operationId: 'login_page_mfa',
      summary: 'MFA step of the sign-in page',
      tags: ['pages'],
      auth: 'none',
      bodyType: 'form',
      body: Form.extend({ code: z.string().max(64).default('') }),
      produces: 'text/html',
      handler: async ({ body, ctx }) => {
        const next = safeNextPath(body.next);
        const mfaToken = ctx.cookies.get(MFA_PENDING_COOKIE);
        if (!checkCsrf(ctx, body.csrf) || !mfaToken) {
          ctx.cookies.set(MFA_PENDING_COOKIE, '', { httpOnly: true, path: '/login', maxAge: 0, signed: false });
          return render(ctx, 403, page('Sign in', passwordForm(csrfFor(ctx), next), 'Your session expired. Please sign in again.'));
        }
        try {
          const session = await mfaSignIn(deps, { mfaToken, code: body.code }, clientInfo(ctx));
          ctx.cookies.set(MFA_PENDING_COOKIE, '', { httpOnly: true, path: '/login', maxAge: 0, signed: false });
          setSessionCookie(ctx, session.token, session.expiresAt - s.clock.now(), secure);
          ctx.status = 303;
          return ctx.redirect(next);
        } catch (err) {
          render(ctx, err instanceof RateLimited ? 429 : 401, page('Two-factor authentication', mfaForm(csrfFor(ctx), next), messageOf(err)));
        }
      },
    }),
  ];
}
