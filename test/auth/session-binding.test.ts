// Session and embedded JWTs as an attacker holding the signing key (or a careless signer) would forge
// them: a token's sid must name a live session of the same kind, user and organization; tokens without
// exp, or living longer than their purpose allows, are refused; embedded tokens die with the session or
// API token that minted them (logout, password change, token_version change, revocation).
import test from 'ava';
import jwt from 'jsonwebtoken';
import { issueAccountToken } from '../../src/auth/account/account-tokens.ts';
import { setMembership, signJwt } from '../../src/auth/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { call, passwordUser, startAuthApp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp({ SEXTANT_EMBEDDED_TOKEN_TTL_SECONDS: '600' });
});
test.after.always(() => t0.stop());

const key = () => t0.config.secrets.jwtKey;
const sidOf = (token: string) => (jwt.decode(token) as { sid: string }).sid;

/** GET /api/auth/me with the token as a bearer and as the session cookie: both statuses. */
async function meStatuses(token: string): Promise<[number, number]> {
  const bearer = await t0.fetch('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  const cookie = await t0.fetch('/api/auth/me', { headers: { cookie: `sextant_session=${token}` } });
  return [bearer.status, cookie.status];
}

async function embeddedFor(minter: string, userId?: string): Promise<string> {
  const res = await call(t0, 'POST', '/api/auth/embedded_user_login', userId ? { user_id: userId } : {}, minter);
  if (res.status !== 200) throw new Error(`embedded_user_login answered ${res.status}`);
  return res.body['access_token'] as string;
}

test('a session token whose sid names another user\'s live session is refused as bearer and as cookie', async (t) => {
  const victim = t0.user();
  const attacker = t0.user();
  const victimSid = sidOf(t0.session(victim));
  const forged = signJwt(key(), t0.clock, 'session', { sub: attacker.id, org: 'acme', tv: attacker.token_version, sid: victimSid }, 3600);
  t.deepEqual(await meStatuses(forged), [401, 401]);
  // The same claims with the attacker's own session are fine: only the binding is refused.
  const own = signJwt(key(), t0.clock, 'session', { sub: attacker.id, org: 'acme', tv: attacker.token_version, sid: sidOf(t0.session(attacker)) }, 3600);
  t.deepEqual(await meStatuses(own), [200, 200]);
});

test('a session token naming the user\'s own session but another organization of theirs is refused', async (t) => {
  const user = t0.user();
  const other = t0.org();
  await setMembership(t0.app.services.executor, t0.clock, { userId: user.id, orgId: other, role: 'admin' });
  const sid = sidOf(t0.session(user, 'acme'));
  const crossed = signJwt(key(), t0.clock, 'session', { sub: user.id, org: other, tv: user.token_version, sid }, 3600);
  t.deepEqual(await meStatuses(crossed), [401, 401]);
});

test('a session token naming an embedded session, and an embedded token naming a session, are refused', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const embedded = await embeddedFor(session);
  const asSession = signJwt(key(), t0.clock, 'session', { sub: user.id, org: 'acme', tv: user.token_version, sid: sidOf(embedded) }, 3600);
  const asEmbedded = signJwt(key(), t0.clock, 'embedded', { sub: user.id, org: 'acme', tv: user.token_version, sid: sidOf(session) }, 600);
  t.deepEqual(await meStatuses(asSession), [401, 401]);
  t.deepEqual(await meStatuses(asEmbedded), [401, 401]);
  t.deepEqual(await meStatuses(embedded), [200, 200]);
});

test('session and embedded tokens without exp, or living longer than allowed, are refused', async (t) => {
  const user = t0.user();
  const now = Math.floor(t0.clock.now() / 1000);
  const forge = (purpose: string, sid: string, extra: Record<string, number>) =>
    jwt.sign({ sub: user.id, org: 'acme', tv: user.token_version, sid, iat: now, ...extra }, key(), { algorithm: 'HS256', issuer: 'sextant', audience: purpose });
  const sessionSid = sidOf(t0.session(user));
  const embeddedSid = sidOf(await embeddedFor(t0.session(user)));
  for (const [purpose, sid] of [['session', sessionSid], ['embedded', embeddedSid]] as const) {
    t.deepEqual(await meStatuses(forge(purpose, sid, {})), [401, 401], `${purpose} without exp`);
    t.deepEqual(await meStatuses(forge(purpose, sid, { exp: now + 10 * 365 * 86400 })), [401, 401], `${purpose} for ten years`);
    t.deepEqual(await meStatuses(forge(purpose, sid, { exp: now + 300 })), [200, 200], `${purpose} for five minutes`);
  }
  // No sid at all: an embedded token of the old shape is refused too.
  const noSid = jwt.sign({ sub: user.id, org: 'acme', tv: user.token_version, iat: now, exp: now + 300 }, key(), { algorithm: 'HS256', issuer: 'sextant', audience: 'embedded' });
  t.deepEqual(await meStatuses(noSid), [401, 401]);
});

test.serial('an embedded token lives as long as SEXTANT_EMBEDDED_TOKEN_TTL_SECONDS says', async (t) => {
  const user = t0.user();
  const res = await call(t0, 'POST', '/api/auth/embedded_user_login', {}, t0.session(user));
  t.is(res.body['expires_in'], 600);
  const token = res.body['access_token'] as string;
  t0.clock.advance(599_000);
  t.deepEqual(await meStatuses(token), [200, 200]);
  t0.clock.advance(2_000);
  t.deepEqual(await meStatuses(token), [401, 401]);
});

test('logging out of the session that minted an embedded token ends the token too', async (t) => {
  const admin = t0.user({ role: 'admin' });
  const member = t0.user();
  const session = t0.session(admin);
  const forMember = await embeddedFor(session, member.id);
  const forSelf = await embeddedFor(session);
  t.is((await call(t0, 'POST', '/api/auth/logout', {}, session)).status, 200);
  t.deepEqual(await meStatuses(forMember), [401, 401]);
  t.deepEqual(await meStatuses(forSelf), [401, 401]);
});

test('logging out with an embedded token ends that token and leaves the minting session alone', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const embedded = await embeddedFor(session);
  t.is((await call(t0, 'POST', '/api/auth/logout', {}, embedded)).status, 200);
  t.deepEqual(await meStatuses(embedded), [401, 401]);
  t.deepEqual(await meStatuses(session), [200, 200]);
});

test('a password change of the minter or of the embedded user ends embedded tokens', async (t) => {
  const admin = await passwordUser(t0, { role: 'admin' });
  const member = await passwordUser(t0);
  const minted = await embeddedFor(t0.session(admin), member.id);
  const memberOwn = await embeddedFor(t0.session(member));
  const resetPassword = async (userId: string) => {
    const token = await issueAccountToken(t0.app.services.executor, t0.clock, { purpose: 'reset_password', userId, ttlMs: 3600_000 });
    t.is((await call(t0, 'POST', '/api/auth/reset_password', { token, new_password: `a brand new passphrase ${userId}` })).status, 200);
  };
  await resetPassword(admin.id);
  t.deepEqual(await meStatuses(minted), [401, 401], 'the minter changed their password');
  t.deepEqual(await meStatuses(memberOwn), [200, 200]);
  await resetPassword(member.id);
  t.deepEqual(await meStatuses(memberOwn), [401, 401], 'the embedded user changed their password');
});

test('an admin\'s MFA reset of the minter (token_version change) ends the embedded tokens they minted', async (t) => {
  const owner = t0.user({ role: 'admin' });
  const minter = t0.user({ role: 'admin' });
  const member = t0.user();
  const embedded = await embeddedFor(t0.session(minter), member.id);
  t.is((await call(t0, 'POST', `/api/auth/admin/users/${minter.id}/mfa/reset`, {}, t0.session(owner))).status, 200);
  t.deepEqual(await meStatuses(embedded), [401, 401]);
});

test('revoking the API token that minted an embedded token ends the embedded token', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const created = await call(t0, 'POST', '/api/auth/user/tokens', { name: 'embedding app' }, session);
  const apiKey = created.body['token'] as string;
  const res = await t0.fetch('/api/auth/embedded_user_login', { method: 'POST', headers: { 'api-key': apiKey, 'content-type': 'application/json' }, body: '{}' });
  const embedded = ((await res.json()) as { access_token: string }).access_token;
  t.deepEqual(await meStatuses(embedded), [200, 200]);
  t.is((await call(t0, 'DELETE', `/api/auth/user/tokens/${created.body['token_id'] as string}`, undefined, session)).status, 204);
  t.deepEqual(await meStatuses(embedded), [401, 401]);
});
