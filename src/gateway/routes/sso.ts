// SSO (OpenID Connect) per organization: /login sends the browser to the provider, /auth comes back.
import type { Context } from 'koa';
import { z } from 'zod';
import { safeNextPath } from '../../auth/credentials/safe-next.ts';
import type { SignInResult } from '../../auth/credentials/sign-in.ts';
import { SsoFailed } from '../../auth/sso/oidc-client.ts';
import { finishSsoLogin, startSsoLogin, SSO_LOGIN_TTL_MS } from '../../auth/sso/sso-login.ts';
import { accountDeps } from '../../compose/account-deps.ts';
import { clientInfo } from '../client-info.ts';
import { secureFlag, setSessionCookie } from '../cookies.ts';
import { rememberSignedInDevice } from '../remembered-device.ts';
import { loginUrl } from '../signed-in.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

/** Binds the login to the browser that started it (login CSRF). */
const SSO_STATE_COOKIE = 'sextant_sso_state';
const Params = z.object({ org_id: z.string().min(1).max(100), type: z.string().regex(/^[a-z0-9_-]{1,40}$/, 'Lower-case letters, digits, _ and -, at most 40 characters') });

/** Where the browser goes once a first factor is done: next, the MFA step, or enrollment. */
export function redirectAfterFirstFactor(s: Services, ctx: Context, result: SignInResult, next: string): void {
  const secure = s.config.baseUrl.startsWith('https://');
  if (result.kind === 'session') {
    setSessionCookie(ctx, result.session.token, result.session.expiresAt - s.clock.now(), secure);
    rememberSignedInDevice(s, ctx, result.session.userId);
    ctx.redirect(safeNextPath(next));
  } else if (result.kind === 'mfa_required') {
    // The fragment never reaches a server; the web client's sign-in page asks for the code with it
    // and drops it from the address at once.
    ctx.redirect(`${loginUrl(next)}#mfa_token=${encodeURIComponent(result.mfaToken)}`);
  } else {
    ctx.redirect(`${loginUrl(next)}#enrollment_token=${encodeURIComponent(result.enrollmentToken)}`);
  }
}

export function ssoRoutes(s: Services) {
  const deps = { ...accountDeps(s), outbound: s.outbound };
  const ssoDeps = { ...deps, ssoGroups: s.ssoGroups };
  const secure = s.config.baseUrl.startsWith('https://');
  return [
    route({
      method: 'GET',
      path: '/api/auth/{org_id}/{type}/login',
      operationId: 'sso_login',
      summary: "Starts SSO sign-in with the organization's identity provider (redirect)",
      tags: ['auth'],
      auth: 'none',
      params: Params,
      query: z.object({ next: z.string().max(2000).optional() }),
      status: 302,
      handler: async ({ params, query, ctx }) => {
        const { url, state } = await startSsoLogin(deps, params.org_id, params.type, query.next);
        ctx.cookies.set(SSO_STATE_COOKIE, state, { httpOnly: true, sameSite: 'lax', secure: secureFlag(ctx, secure), maxAge: SSO_LOGIN_TTL_MS, path: '/api/auth/', signed: false });
        ctx.redirect(url);
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/{org_id}/{type}/auth',
      operationId: 'sso_callback',
      summary: 'SSO callback: checks state, PKCE and nonce, links or creates the user, then signs in',
      tags: ['auth'],
      auth: 'none',
      params: Params,
      query: z.object({ code: z.string().min(1).max(4096).optional(), state: z.string().min(1).max(512), error: z.string().max(200).optional() }),
      status: 302,
      handler: async ({ params, query, ctx }) => {
        const browserState = ctx.cookies.get(SSO_STATE_COOKIE);
        ctx.cookies.set(SSO_STATE_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: secureFlag(ctx, secure), maxAge: 0, path: '/api/auth/', signed: false });
        // The provider refused (user cancelled, access denied): no code to exchange.
        if (!query.code) throw new SsoFailed(query.error ? 'provider_error' : 'no_code');
        const { result, next } = await finishSsoLogin(ssoDeps, { orgId: params.org_id, type: params.type, code: query.code, state: query.state, browserState, ip: clientInfo(ctx).ip });
        redirectAfterFirstFactor(s, ctx, result, next);
      },
    }),
  ];
}
