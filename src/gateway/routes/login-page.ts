// The minimal server-rendered sign-in page: email and password, then the MFA code step (or MFA
// enrollment when the organization enforces it). Sets the session cookie and returns only to
// same-origin paths. CSRF: a random cookie echoed in each form.
import type { Context } from 'koa';
import { z } from 'zod';
import { authenticate } from '../../auth/authenticate.ts';
import { confirmMfa, setupMfa } from '../../auth/mfa/enroll.ts';
import { safeNextPath } from '../../auth/safe-next.ts';
import { ENROLLMENT_TTL_SECONDS, mfaSignIn, passwordSignIn } from '../../auth/sign-in.ts';
import { AppError, RateLimited } from '../../errors.ts';
import { constantTimeEqual, newSecret } from '../../security/index.ts';
import { accountDeps, clientInfo } from '../account-deps.ts';
import { setSessionCookie } from '../cookies.ts';
import { enrollForm, mfaForm, page, passwordForm, recoveryCodesPage } from '../login-html.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';

export const MFA_PENDING_COOKIE = 'sextant_mfa_pending';
const ENROLLMENT_COOKIE = 'sextant_mfa_enrollment';
const CSRF_COOKIE = 'sextant_login_csrf';

/** Keeps the pending MFA token in an HttpOnly cookie between the two sign-in steps of the page. */
export function setMfaPendingCookie(ctx: Context, token: string, maxAgeSeconds: number, secure: boolean): void {
  ctx.cookies.set(MFA_PENDING_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, maxAge: maxAgeSeconds * 1000, path: '/login', signed: false });
}

const clear = (ctx: Context, name: string) => ctx.cookies.set(name, '', { httpOnly: true, path: '/login', maxAge: 0, signed: false });

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
  const failed = (ctx: Context, err: unknown, title: string, form: string) => {
    render(ctx, err instanceof RateLimited ? 429 : 401, page(title, form, messageOf(err)));
    if (err instanceof RateLimited) ctx.set('Retry-After', String(err.retryAfterSeconds));
  };
  const csrfOk = (ctx: Context, sent: string) => {
    const cookie = ctx.cookies.get(CSRF_COOKIE);
    return !!cookie && constantTimeEqual(cookie, sent);
  };
  const signedIn = (ctx: Context, session: { token: string; expiresAt: number }, next: string) => {
    setSessionCookie(ctx, session.token, session.expiresAt - s.clock.now(), secure);
    ctx.status = 303;
    ctx.redirect(next);
  };
  const expired = (ctx: Context, next: string) => render(ctx, 403, page('Sign in', passwordForm(csrfFor(ctx), next), 'Your sign-in expired. Please try again.'));
  const Form = z.object({ csrf: z.string().max(200).default(''), next: z.string().max(2000).optional() });
  const common = { tags: ['pages'], auth: 'none' as const, produces: 'text/html' };
  return [
    route({
      ...common,
      method: 'GET',
      path: '/login',
      operationId: 'login_page',
      summary: 'Sign-in page; `next` is a same-origin path to return to',
      query: z.object({ next: z.string().max(2000).optional() }),
      handler: ({ query, ctx }) => {
        const next = safeNextPath(query.next);
        if (ctx.cookies.get(MFA_PENDING_COOKIE)) return render(ctx, 200, page('Two-factor authentication', mfaForm(csrfFor(ctx), next)));
        render(ctx, 200, page('Sign in', passwordForm(csrfFor(ctx), next)));
      },
    }),
    route({
      ...common,
      method: 'POST',
      path: '/login',
      operationId: 'login_page_submit',
      summary: 'Sign-in form submission',
      bodyType: 'form',
      body: Form.extend({ email: z.string().max(320).default(''), password: z.string().max(1024).default('') }),
      handler: async ({ body, ctx }) => {
        const next = safeNextPath(body.next);
        if (!csrfOk(ctx, body.csrf)) return expired(ctx, next);
        try {
          const result = await passwordSignIn(deps, { email: body.email, password: body.password }, clientInfo(ctx));
          if (result.kind === 'session') return signedIn(ctx, result.session, next);
          if (result.kind === 'mfa_required') {
            setMfaPendingCookie(ctx, result.mfaToken, result.expiresIn, secure);
            return render(ctx, 200, page('Two-factor authentication', mfaForm(csrfFor(ctx), next)));
          }
          ctx.cookies.set(ENROLLMENT_COOKIE, result.enrollmentToken, { httpOnly: true, sameSite: 'lax', secure, maxAge: ENROLLMENT_TTL_SECONDS * 1000, path: '/login', signed: false });
          const principal = authenticate(deps, { via: 'bearer', value: result.enrollmentToken });
          render(ctx, 200, page('Set up two-factor authentication', enrollForm(csrfFor(ctx), next, setupMfa(deps, principal))));
        } catch (err) {
          failed(ctx, err, 'Sign in', passwordForm(csrfFor(ctx), next, body.email));
        }
      },
    }),
    route({
      ...common,
      method: 'POST',
      path: '/login/mfa',
      operationId: 'login_page_mfa',
      summary: 'MFA step of the sign-in page',
      bodyType: 'form',
      body: Form.extend({ code: z.string().max(64).default('') }),
      handler: async ({ body, ctx }) => {
        const next = safeNextPath(body.next);
        const mfaToken = ctx.cookies.get(MFA_PENDING_COOKIE);
        if (!csrfOk(ctx, body.csrf) || !mfaToken) {
          clear(ctx, MFA_PENDING_COOKIE);
          return expired(ctx, next);
        }
        try {
          const session = await mfaSignIn(deps, { mfaToken, code: body.code }, clientInfo(ctx));
          clear(ctx, MFA_PENDING_COOKIE);
          signedIn(ctx, session, next);
        } catch (err) {
          failed(ctx, err, 'Two-factor authentication', mfaForm(csrfFor(ctx), next));
        }
      },
    }),
    route({
      ...common,
      method: 'POST',
      path: '/login/enroll',
      operationId: 'login_page_enroll',
      summary: 'MFA enrollment step of the sign-in page (organizations that enforce MFA)',
      bodyType: 'form',
      body: Form.extend({ code: z.string().max(64).default('') }),
      handler: async ({ body, ctx }) => {
        const next = safeNextPath(body.next);
        const token = ctx.cookies.get(ENROLLMENT_COOKIE);
        if (!csrfOk(ctx, body.csrf) || !token) return expired(ctx, next);
        try {
          const principal = authenticate(deps, { via: 'bearer', value: token });
          const done = await confirmMfa(deps, principal, body.code);
          clear(ctx, ENROLLMENT_COOKIE);
          setSessionCookie(ctx, done.session!.token, done.session!.expiresAt - s.clock.now(), secure);
          render(ctx, 200, page('Save your recovery codes', recoveryCodesPage(done.recoveryCodes, next)));
        } catch (err) {
          // A wrong code restarts with a fresh secret so the page can show it again.
          clear(ctx, ENROLLMENT_COOKIE);
          failed(ctx, err, 'Sign in', passwordForm(csrfFor(ctx), next));
        }
      },
    }),
  ];
}
