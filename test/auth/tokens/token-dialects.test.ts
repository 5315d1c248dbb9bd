// The token stores give the same answers on SQLite and PostgreSQL: API tokens created, listed and
// revoked by their user or an admin of their organization; MCP and CLI tokens exclusive per user;
// another user's or organization's tokens never read or changed.
import { sql } from 'kysely';
import { authenticateApiToken, type Principal } from '../../../src/auth/index.ts';
import {
  createApiToken,
  createCliToken,
  createMcpToken,
  listOwnTokens,
  listUserTokens,
  revokeOwnToken,
  revokeUserToken,
  type TokenDeps,
} from '../../../src/auth/tokens/index.ts';
import { FakeClock } from '../../../src/clock.ts';
import { AppError } from '../../../src/errors.ts';
import type { Executor } from '../../../src/store/index.ts';
import { dialectTest } from '../../helpers/executors.ts';

const principal = (userId: string, orgId: string, role: Principal['role'] = 'user') => ({ userId, orgId, role, permissions: [] }) as unknown as Principal;
const alice = principal('alice', 'o1');
const bob = principal('bob', 'o1');
const admin = principal('root', 'o1', 'admin');
const otherAdmin = principal('eve', 'o2', 'admin');

/** Organizations o1 (alice, bob, root as admin) and o2 (eve as admin). */
async function seed(x: Executor): Promise<void> {
  for (const org of ['o1', 'o2']) await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${org}, ${org}, 0)`);
  for (const [user, org, role] of [['alice', 'o1', 'user'], ['bob', 'o1', 'user'], ['root', 'o1', 'admin'], ['eve', 'o2', 'admin']] as const) {
    await x.run(sql`INSERT INTO users (id, email, created_at) VALUES (${user}, ${`${user}@example.com`}, 0)`);
    await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (${user}, ${org}, ${role}, 0)`);
  }
}

const codeOf = (err: unknown) => (err instanceof AppError ? err.code : String(err));

dialectTest('an API token is created, listed newest first without its value, and revoked once', async (t, { x }) => {
  await seed(x);
  const clock = new FakeClock();
  const deps: TokenDeps = { store: x, clock };
  const first = await createApiToken(deps, alice, { name: ' first ', expiresInDays: 1 });
  clock.advance(1000);
  const second = await createApiToken(deps, alice, { name: 'second' });
  t.regex(first.token, /^sxt_api_/);
  t.like(first, { name: 'first', kind: 'api', org_id: 'o1', scopes: ['api:full'], expired: false });
  t.is(second.expires_at, null);
  const listed = await listOwnTokens(deps, alice, ['api']);
  t.deepEqual(listed.map((v) => v.token_id), [second.token_id, first.token_id]);
  t.false(listed.some((v) => 'token' in v));
  t.deepEqual(await listOwnTokens(deps, alice, ['cli', 'mcp']), []);
  t.like(await revokeOwnToken(deps, alice, first.token_id, ['api']), { id: first.token_id, user_id: 'alice', kind: 'api' });
  t.is(codeOf(await revokeOwnToken(deps, alice, first.token_id, ['api']).catch((e: unknown) => e)), 'TOKEN_NOT_FOUND');
  t.deepEqual((await listOwnTokens(deps, alice, ['api'])).map((v) => v.token_id), [second.token_id]);
});

dialectTest(
  'tokens of one millisecond are listed by the bytes of their ids whatever the collation of the database',
  async (t, { x }) => {
    await seed(x);
    const deps: TokenDeps = { store: x, clock: new FakeClock() };
    const made = [await createApiToken(deps, alice, { name: 'one' }), await createApiToken(deps, alice, { name: 'two' }), await createApiToken(deps, alice, { name: 'three' })];
    // Ids chosen so that byte order (capitals first) and a linguistic order disagree.
    for (const [i, id] of ['b1', 'B2', 'a3'].entries()) await x.run(sql`UPDATE api_tokens SET id = ${id} WHERE id = ${made[i]!.token_id}`);
    t.deepEqual((await listOwnTokens(deps, alice, ['api'])).map((v) => v.token_id), ['B2', 'a3', 'b1']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest("another user's tokens are never listed or revoked, and another kind is not found", async (t, { x }) => {
  await seed(x);
  const deps: TokenDeps = { store: x, clock: new FakeClock() };
  const token = await createApiToken(deps, alice, { name: 'mine' });
  t.deepEqual(await listOwnTokens(deps, bob, ['api']), []);
  t.is(codeOf(await revokeOwnToken(deps, bob, token.token_id, ['api']).catch((e: unknown) => e)), 'TOKEN_NOT_FOUND');
  t.is(codeOf(await revokeOwnToken(deps, alice, token.token_id, ['mcp']).catch((e: unknown) => e)), 'TOKEN_NOT_FOUND');
  t.is((await listOwnTokens(deps, alice, ['api'])).length, 1, 'still live');
});

dialectTest("an admin manages a member's tokens, but not another organization's members", async (t, { x }) => {
  await seed(x);
  const deps: TokenDeps = { store: x, clock: new FakeClock() };
  const made = await createApiToken(deps, admin, { userId: 'alice', name: 'for alice' });
  t.is(made.org_id, 'o1');
  t.deepEqual((await listUserTokens(deps, admin, 'alice')).map((v) => v.token_id), [made.token_id]);
  t.deepEqual((await listOwnTokens(deps, alice, ['api'])).map((v) => v.token_id), [made.token_id]);
  for (const attempt of [
    () => listUserTokens(deps, otherAdmin, 'alice'),
    () => revokeUserToken(deps, otherAdmin, 'alice', made.token_id),
    () => createApiToken(deps, otherAdmin, { userId: 'alice', name: 'intruder' }),
  ]) t.is(codeOf(await attempt().catch((e: unknown) => e)), 'USER_NOT_FOUND');
  t.is(codeOf(await listUserTokens(deps, bob, 'alice').catch((e: unknown) => e)), 'ADMIN_REQUIRED');
  t.is(codeOf(await revokeUserToken(deps, admin, 'bob', made.token_id).catch((e: unknown) => e)), 'TOKEN_NOT_FOUND', "not bob's token");
  t.like(await revokeUserToken(deps, admin, 'alice', made.token_id), { id: made.token_id });
  t.deepEqual(await listUserTokens(deps, admin, 'alice'), []);
});

dialectTest('a new MCP or CLI token revokes the earlier one of its kind and user only', async (t, { x }) => {
  await seed(x);
  const deps: TokenDeps = { store: x, clock: new FakeClock() };
  const bobs = await createCliToken(deps, bob);
  const firstMcp = await createMcpToken(deps, alice);
  const firstCli = await createCliToken(deps, alice);
  const secondCli = await createCliToken(deps, alice);
  t.regex(secondCli.token, /^sxt_cli_/);
  t.deepEqual((await listOwnTokens(deps, alice, ['cli'])).map((v) => v.token_id), [secondCli.token_id]);
  t.deepEqual((await listOwnTokens(deps, alice, ['mcp'])).map((v) => v.token_id), [firstMcp.token_id]);
  t.deepEqual((await listOwnTokens(deps, bob, ['cli'])).map((v) => v.token_id), [bobs.token_id]);
  t.not(firstCli.token_id, secondCli.token_id);
  t.truthy(firstMcp.expires_at);
});

dialectTest('concurrent CLI token creations on two connections leave one live token', async (t, { x, other }) => {
  await seed(x);
  const clock = new FakeClock();
  await Promise.all([x, other, x, other].map((store) => createCliToken({ store, clock }, alice)));
  t.is((await listOwnTokens({ store: x, clock }, alice, ['cli'])).length, 1);
});

dialectTest('revoking a token is seen on the next request', async (t, { x }) => {
  await seed(x);
  const clock = new FakeClock();
  const deps: TokenDeps = { store: x, clock };
  const made = await createApiToken(deps, alice, { name: 'soon gone' });
  const auth = { store: x, clock, jwtKey: 'k' };
  t.is((await authenticateApiToken(auth, made.token)).userId, 'alice', 'accepted (and cached)');
  await revokeOwnToken(deps, alice, made.token_id, ['api']);
  const row = await x.one(sql<{ revoked_at: number | null }>`SELECT revoked_at FROM api_tokens WHERE id = ${made.token_id}`);
  t.is(Number(row?.revoked_at), clock.now());
  t.is(codeOf(await (async () => authenticateApiToken(auth, made.token))().catch((e: unknown) => e)), 'INVALID_API_TOKEN');
});
