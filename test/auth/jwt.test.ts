import test from 'ava';
import { signJwt, verifyJwt } from '../../src/auth/credentials/jwt.ts';
import { FakeClock } from '../../src/clock.ts';

const KEY = 'jwt-test-key-jwt-test-key-jwt-test-key-01';
const claims = { sub: 'u1', org: 'o1', tv: 0 };

test('a token verified before is accepted again until it expires, then refused', (t) => {
  const clock = new FakeClock();
  const token = signJwt(KEY, clock, 'session', claims, 60);
  t.like(verifyJwt(KEY, clock, 'session', token), claims);
  t.like(verifyJwt(KEY, clock, 'session', token), claims);
  clock.advance(59_000);
  t.like(verifyJwt(KEY, clock, 'session', token), claims);
  clock.advance(1_000);
  t.is(verifyJwt(KEY, clock, 'session', token), undefined);
});

test('a token verified before is still refused for another purpose or under another key', (t) => {
  const clock = new FakeClock();
  const token = signJwt(KEY, clock, 'session', claims, 60);
  t.truthy(verifyJwt(KEY, clock, 'session', token));
  t.is(verifyJwt(KEY, clock, 'mfa_pending', token), undefined);
  t.is(verifyJwt(`${KEY}-rotated`, clock, 'session', token), undefined);
});

test('a token with a forged signature is refused, and the real one is still accepted', (t) => {
  const clock = new FakeClock();
  const token = signJwt(KEY, clock, 'session', claims, 60);
  const forged = signJwt('another-key-another-key-another-key-0123', clock, 'session', { ...claims, sub: 'admin' }, 60);
  t.is(verifyJwt(KEY, clock, 'session', forged), undefined);
  t.is(verifyJwt(KEY, clock, 'session', `${token.slice(0, -2)}xx`), undefined);
  t.like(verifyJwt(KEY, clock, 'session', token), claims);
});
