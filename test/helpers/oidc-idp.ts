// A real OpenID Connect provider (oidc-provider) on loopback, as an organization's identity provider.
// Interactions finish at once: login as the account chosen with `signInAs`, consent to what was asked.
import Provider from 'oidc-provider';
import { freePort } from './app.ts';

/** An account at the provider; `groups` is sent in the `groups` claim when the `groups` scope is asked. */
export interface IdpAccount {
  sub: string;
  email: string;
  name?: string;
  emailVerified?: boolean;
  groups?: string[];
}

export interface TestIdp {
  issuer: string;
  /** The account the next login interaction signs in as. */
  signInAs(account: IdpAccount): void;
  stop(): Promise<void>;
}

export async function startTestIdp({ clientId, clientSecret, redirectUris }: { clientId: string; clientSecret: string; redirectUris: string[] }): Promise<TestIdp> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, IdpAccount>();
  let current: IdpAccount = { sub: 'nobody', email: 'nobody@idp.test' };
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    cookies: { keys: ['idp-test-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const a = accounts.get(id);
      if (!a) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email: a.email, email_verified: a.emailVerified ?? true, name: a.name ?? '', groups: a.groups ?? [] }) };
    },
  });
  provider.use(async (ctx, next) => {
    const m = /^\/interaction\/([\w-]+)$/.exec(ctx.path);
    if (!m) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    let result: Record<string, unknown>;
    if (details.prompt.name === 'login') {
      accounts.set(current.sub, current);
      result = { login: { accountId: current.sub } };
    } else {
      const grant = details.grantId
        ? (await provider.Grant.find(details.grantId))!
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params['client_id'] as string });
      const missing = details.prompt.details['missingOIDCScope'] as string[] | undefined;
      if (missing) grant.addOIDCScope(missing.join(' '));
      result = { consent: { grantId: await grant.save() } };
    }
    ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: true }));
  });
  const server = provider.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    issuer,
    signInAs(account) {
      current = account;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
