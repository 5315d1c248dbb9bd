// A cached credential is refused on the very next request after the write that ends it, on both
// dialects: revoking a token, ending a session, bumping token_version, deactivating a membership,
// disabling the user. On PostgreSQL another replica (its own executor and cache) refuses it too once
// the database's notification has arrived.
import { sql } from 'kysely';
import type { ExecutionContext } from 'ava';
import { authenticate, endSession, invalidateSessionsQueries, startSession, type AuthDeps, type PresentedCredential } from '../../src/auth/index.ts';
import { credentialCache } from '../../src/auth/credentials/credential-cache.ts';
import { listenForCredentialChanges } from '../../src/auth/credentials/pg-credential-changes.ts';
import { createApiToken, revokeOwnToken } from '../../src/auth/tokens/index.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { FakeClock } from '../../src/clock.ts';
import { AppError } from '../../src/errors.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest, type DialectCase } from '../helpers/executors.ts';

const alice = { userId: 'alice', orgId: 'o1', baseOrgId: 'o1', email: 'alice@example.com', role: 'user', permissions: [], credential: 'session', scopes: [] } as Principal;

async function seed(x: Executor): Promise<void> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'O1', 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('alice', 'alice@example.com', 0)`);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('alice', 'o1', 'user', 0)`);
}

/** The error code of a refused credential: `authenticate` throws at once or rejects, depending on the cache. */
const codeOf = async (authenticating: () => unknown) => {
  const err = await (async () => authenticating())().then(() => undefined, (e: unknown) => e);
  return err instanceof AppError ? err.code : err;
};

type Credential = { presented: PresentedCredential; refused: string; sessionId?: string; tokenId?: string };

/** A token or a session of alice, accepted once (and so cached). */
async function credential(t: ExecutionContext, deps: AuthDeps, kind: 'token' | 'session'): Promise<Credential> {
  if (kind === 'token') {
    const made = await createApiToken({ store: deps.store, clock: deps.clock }, alice, { name: 'cached' });
    const c = { presented: { via: 'api_key', value: made.token } as const, refused: 'INVALID_API_TOKEN', tokenId: made.token_id };
    t.is((await authenticate(deps, c.presented)).userId, 'alice');
    return c;
  }
  const started = await startSession(deps, { id: 'alice', token_version: 0 }, 'o1');
  const c = { presented: { via: 'cookie', value: started.token } as const, refused: 'INVALID_SESSION', sessionId: started.sessionId };
  t.is((await authenticate(deps, c.presented)).userId, 'alice');
  return c;
}

/** The writes that end a credential, each through the store as the service makes it. */
const ENDINGS: [title: string, kind: 'token' | 'session', end: (x: Executor, clock: FakeClock, c: Credential) => Promise<unknown>][] = [
  ['revoking the token', 'token', (x, clock, c) => revokeOwnToken({ store: x, clock }, alice, c.tokenId!, ['api'])],
  ['ending the session', 'session', (x, clock, c) => endSession({ store: x, clock }, c.sessionId!)],
  ['bumping token_version', 'session', (x, clock) => x.batch(invalidateSessionsQueries('alice', clock.now()))],
  ['deactivating the membership', 'token', (x, clock) => x.run(sql`UPDATE memberships SET deactivated_at = ${clock.now()} WHERE user_id = 'alice'`)],
  ['disabling the user', 'session', (x, clock) => x.run(x.db.updateTable('users').set({ disabled_at: clock.now() }).where('id', '=', 'alice'))],
];

for (const [title, kind, end] of ENDINGS) {
  dialectTest(`a cached ${kind} is refused on the next request after ${title}`, async (t, { x }) => {
    await seed(x);
    const clock = new FakeClock();
    const deps = { store: x, clock, jwtKey: 'k' };
    const c = await credential(t, deps, kind);
    t.is((await authenticate(deps, c.presented)).userId, 'alice', 'served again (from the cache)');
    await end(x, clock, c);
    t.is(await codeOf(() => authenticate(deps, c.presented)), c.refused);
  });
}

/** Replica B listens for the database's notifications; resolves with a waiter for the next one. */
async function listeningReplica(t: ExecutionContext, c: DialectCase) {
  let next: () => void = () => {};
  const listener = await listenForCredentialChanges(c.other, c.url!, () => next());
  t.teardown(() => listener.close());
  return { notified: () => new Promise<void>((resolve) => (next = resolve)) };
}

for (const [title, kind, end] of ENDINGS) {
  dialectTest(`another replica refuses a cached ${kind} once told of ${title}`, async (t, c) => {
    if (c.dialect === 'sqlite') {
      t.pass('one process per SQLite database: replicas share changes through the bus (replica-bus.test.ts)');
      return;
    }
    await seed(c.x);
    const clock = new FakeClock();
    const b = { store: c.other, clock, jwtKey: 'k' };
    const replica = await listeningReplica(t, c);
    const made = await credential(t, b, kind);
    t.is((await authenticate(b, made.presented)).userId, 'alice', 'B serves it again (from its cache)');
    const told = replica.notified();
    await end(c.x, clock, made);
    await told;
    t.is(await codeOf(() => authenticate(b, made.presented)), made.refused);
  });
}

dialectTest('recording a token\'s use keeps the cache (no drop on every request)', async (t, { x }) => {
  await seed(x);
  const clock = new FakeClock();
  const deps = { store: x, clock, jwtKey: 'k' };
  let drops = 0;
  const made = await credential(t, deps, 'token');
  credentialCache(x).onWrite(() => drops++);
  await x.run(x.db.updateTable('api_tokens').set({ last_used_at: clock.now() + 1 }).where('id', '=', made.tokenId!));
  t.is(drops, 0);
  await x.run(x.db.updateTable('api_tokens').set({ revoked_at: clock.now() }).where('id', '=', made.tokenId!));
  t.is(drops, 1);
});

for (const kind of ['token', 'session'] as const) {
  dialectTest(`a cached ${kind} resolves without a promise, a fresh one after a write through the store`, async (t, { x }) => {
    await seed(x);
    const deps = { store: x, clock: new FakeClock(), jwtKey: 'k' };
    const c = await credential(t, deps, kind);
    const cached = authenticate(deps, c.presented);
    t.false(cached instanceof Promise, 'the hot path awaits nothing');
    t.is((cached as Principal).userId, 'alice');
    await x.run(sql`UPDATE users SET name = 'Alice' WHERE id = 'alice'`);
    const reread = authenticate(deps, c.presented);
    t.true(reread instanceof Promise, 'read again from the store after the cache was dropped');
    t.is((await reread).userId, 'alice');
  });
}
