// A started SSO login is consumed once, by the organization and provider type that started it and
// before it expires, on SQLite and PostgreSQL. On PostgreSQL `other` is a second pool standing for a
// second replica: concurrent callbacks carrying one state have exactly one winner.
import { sql } from 'kysely';
import { consumeLoginState, saveLoginState, type LoginState } from '../../../src/auth/sso/login-state.ts';
import type { Executor } from '../../../src/store/index.ts';
import { dialectTest } from '../../helpers/executors.ts';

const login: LoginState = { code_verifier: 'verifier', nonce: 'nonce', next_path: '/after' };
const NOW = 1_000_000;
const TTL = 600_000;

const save = (x: Executor, stateHash: string, now = NOW) => saveLoginState(x, { stateHash, orgId: 'acme', type: 'oidc', login, now, expiresAt: now + TTL });
const consume = (x: Executor, stateHash: string, p: { orgId?: string; type?: string; now?: number } = {}) =>
  consumeLoginState(x, { stateHash, orgId: p.orgId ?? 'acme', type: p.type ?? 'oidc', now: p.now ?? NOW + 1 });

dialectTest('a started login gives its saved values to the first callback and nothing to a replay', async (t, { x }) => {
  await save(x, 'h1');
  t.deepEqual(await consume(x, 'h1'), login);
  t.is(await consume(x, 'h1'), undefined);
  t.is(await consume(x, 'unknown'), undefined);
});

dialectTest("another organization's or provider type's callback, or a late one, does not consume the login", async (t, { x }) => {
  await save(x, 'h1');
  t.is(await consume(x, 'h1', { orgId: 'globex' }), undefined);
  t.is(await consume(x, 'h1', { type: 'okta' }), undefined);
  t.is(await consume(x, 'h1', { now: NOW + TTL }), undefined);
  // None of them used it up.
  t.deepEqual(await consume(x, 'h1', { now: NOW + TTL - 1 }), login);
});

dialectTest('concurrent callbacks with one state through two connections: exactly one gets the login', async (t, { x, other }) => {
  for (let trial = 0; trial < 20; trial++) {
    const hash = `race-${trial}`;
    await save(x, hash);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => consume(i % 2 === 0 ? x : other, hash)));
    t.is(results.filter((r) => r !== undefined).length, 1, `trial ${trial}`);
  }
  const used = await x.one(sql<{ n: number }>`SELECT COUNT(*) AS n FROM sso_logins WHERE used_at IS NOT NULL`);
  t.is(Number(used?.n), 20);
});
