// The id_token check against a real JWKS served on loopback: what a provider signs passes, anything
// forged, misaddressed, expired or unsigned is refused, and a rotated key is found by reading the keys again.
import test from 'ava';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import { verifyIdToken } from '../../../src/auth/sso/id-token.ts';
import { createOutbound } from '../../../src/outbound/index.ts';

const ISSUER = 'https://idp.example';
const AUDIENCE = 'sextant-client';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const published: { kid: string; key: KeyObject }[] = [];
let jwksUri = '';
let reads = 0;
let close = () => undefined as void;

test.before(async () => {
  const server = createServer((_req, res) => {
    reads++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: published.map((p) => ({ ...p.key.export({ format: 'jwk' }), kid: p.kid, use: 'sig', alg: 'RS256' })) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  close = () => void server.close();
});
test.after.always(() => close());

const first = rsa();
published.push({ kid: 'k1', key: first.publicKey });
const sign = (claims: object, key = first.privateKey, options: jwt.SignOptions = {}) =>
  jwt.sign({ sub: 'u1', nonce: 'n', iat: Math.floor(NOW / 1000), ...claims }, key, { algorithm: 'RS256', keyid: 'k1', issuer: ISSUER, audience: AUDIENCE, expiresIn: 300, ...options });
// The keys are served on loopback, which the guarded client refuses unless allowed.
const outbound = createOutbound({ allow: ['127.0.0.1'] });
const check = (token: string, p: Partial<{ issuer: string; audience: string; nowMs: number }> = {}) => verifyIdToken(token, { fetch: outbound.fetch, jwksUri, issuer: ISSUER, audience: AUDIENCE, nowMs: NOW, ...p });

test.serial('a token the provider signed passes with its claims', async (t) => {
  t.like(await check(sign({ email: 'a@corp.test' })), { sub: 'u1', email: 'a@corp.test', iss: ISSUER });
});

test.serial('a wrong issuer, a wrong audience or an expired token is refused', async (t) => {
  await t.notThrowsAsync(check(sign({})));
  await t.throwsAsync(check(sign({}), { issuer: 'https://other.example' }));
  await t.throwsAsync(check(sign({}), { audience: 'someone-else' }));
  await t.throwsAsync(check(sign({}), { nowMs: NOW + 10 * 60_000 }));
});

test.serial('a token signed by another key under the same key id, an HMAC token and an unsigned one are refused', async (t) => {
  await t.throwsAsync(check(sign({}, rsa().privateKey)));
  await t.throwsAsync(check(jwt.sign({ sub: 'u1' }, 'a-shared-secret', { algorithm: 'HS256', keyid: 'k1', issuer: ISSUER, audience: AUDIENCE })));
  const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'k1' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'u1', iss: ISSUER, aud: AUDIENCE })).toString('base64url')}.`;
  await t.throwsAsync(check(unsigned));
});

test.serial('a rotated key is found by reading the key set once more', async (t) => {
  await check(sign({}));
  const before = reads;
  const second = rsa();
  published.push({ kid: 'k2', key: second.publicKey });
  t.like(await check(sign({}, second.privateKey, { keyid: 'k2' })), { sub: 'u1' });
  t.is(reads, before + 1);
});
