// Ending a user's standing access (issue 33 §6 and §8) gives the same result on SQLite and PostgreSQL:
// revokeAccessQueries revokes the user's live tokens and deletes their OAuth grants with every token
// of them, in one organization or in all, and nobody else's (a user id that prefixes another's
// included); migration 0104 does the same for members deactivated before it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { revokeAccessQueries, revokedAccess } from '../../src/auth/credentials/revoke-access.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest, type DialectCase } from '../helpers/executors.ts';

/** Users u1 and u10 in organizations a and b, each with an API token, a session and an OAuth grant (with an access token) per organization. */
async function seed(x: Executor): Promise<void> {
  for (const org of ['a', 'b']) await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${org}, ${org}, 0)`);
  for (const user of ['u1', 'u10']) {
    await x.run(sql`INSERT INTO users (id, email, created_at) VALUES (${user}, ${`${user}@example.com`}, 0)`);
    for (const org of ['a', 'b']) {
      const id = `${user}-${org}`;
      await x.run(sql`INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (${user}, ${org}, 'user', 0, 0)`);
      await x.run(sql`INSERT INTO api_tokens (id, user_id, org_id, kind, token_hash, prefix, scopes, created_at) VALUES (${id}, ${user}, ${org}, 'api', ${`hash-${id}`}, 'sxt_api_', 'api:full', 0)`);
      await x.run(sql`INSERT INTO sessions (id, user_id, org_id, created_at, expires_at) VALUES (${id}, ${user}, ${org}, 0, 9999999999999)`);
      await x.run(sql`INSERT INTO oauth_models (model, id, payload, account_id, created_at) VALUES ('Grant', ${`g-${id}`}, '{}', ${`${user}:${org}`}, 0)`);
      await x.run(sql`INSERT INTO oauth_models (model, id, payload, grant_id, created_at) VALUES ('AccessToken', ${`at-${id}`}, '{}', ${`g-${id}`}, 0)`);
    }
  }
  await x.run(sql`INSERT INTO oauth_models (model, id, payload, created_at) VALUES ('Client', 'c1', '{}', 0)`);
}

/** What still lives: token, session and OAuth rows by id. */
async function live(x: Executor) {
  const ids = async (q: ReturnType<typeof sql<{ id: string }>>) => (await x.all(q)).map((r) => r.id).sort();
  return {
    tokens: await ids(sql<{ id: string }>`SELECT id FROM api_tokens WHERE revoked_at IS NULL`),
    sessions: await ids(sql<{ id: string }>`SELECT id FROM sessions WHERE ended_at IS NULL`),
    oauth: await ids(sql<{ id: string }>`SELECT id FROM oauth_models`),
  };
}

const everything = (users: string[], orgs = ['a', 'b']) => {
  const ids = users.flatMap((u) => orgs.map((o) => `${u}-${o}`));
  return { tokens: ids, oauth: ids.flatMap((id) => [`at-${id}`, `g-${id}`]) };
};

dialectTest("revoking a user's access in one organization, then in all, leaves everyone else's", async (t, { x }) => {
  await seed(x);
  const inA = await x.batch(revokeAccessQueries(x, { userId: 'u1', orgId: 'a', now: 5 }));
  t.deepEqual(inA.ok && revokedAccess(inA.results, 0), { tokens: 1, grants: 1 });
  const afterA = await live(x);
  t.deepEqual(afterA.tokens, ['u1-b', 'u10-a', 'u10-b']);
  t.deepEqual(afterA.oauth, ['at-u1-b', 'at-u10-a', 'at-u10-b', 'c1', 'g-u1-b', 'g-u10-a', 'g-u10-b']);
  const all = await x.batch(revokeAccessQueries(x, { userId: 'u1', now: 6 }));
  t.deepEqual(all.ok && revokedAccess(all.results, 0), { tokens: 1, grants: 1 });
  const after = await live(x);
  t.deepEqual(after.tokens, everything(['u10']).tokens);
  t.deepEqual(after.oauth, ['c1', ...everything(['u10']).oauth].sort());
  t.is(Number((await x.one(sql<{ revoked_at: number }>`SELECT revoked_at FROM api_tokens WHERE id = 'u1-a'`))?.revoked_at), 5);
});

/** Runs migration 0104 of the case's dialect again, statement by statement. */
async function migration0104(c: DialectCase): Promise<void> {
  const dir = join(import.meta.dirname, '../../src/store/migrations', c.dialect === 'postgres' ? 'postgres' : '');
  const text = readFileSync(join(dir, '0104_revoke_deactivated_access.sql'), 'utf8').replace(/^--.*$/gm, '');
  for (const statement of text.split(/;\s*$/m).filter((s) => s.trim())) await c.x.run(sql.raw(statement));
}

dialectTest('migration 0104 ends what members deactivated before it held there, and what disabled accounts held anywhere', async (t, c) => {
  const { x } = c;
  await seed(x);
  await x.run(sql`UPDATE memberships SET deactivated_at = 7 WHERE user_id = 'u1' AND org_id = 'b'`);
  await x.run(sql`UPDATE users SET disabled_at = 8 WHERE id = 'u10'`);
  await migration0104(c);
  const after = await live(x);
  t.deepEqual(after.tokens, ['u1-a']);
  t.deepEqual(after.sessions, ['u1-a']);
  t.deepEqual(after.oauth, ['at-u1-a', 'c1', 'g-u1-a']);
  t.is(Number((await x.one(sql<{ revoked_at: number }>`SELECT revoked_at FROM api_tokens WHERE id = 'u1-b'`))?.revoked_at), 7);
  t.is(Number((await x.one(sql<{ ended_at: number }>`SELECT ended_at FROM sessions WHERE id = 'u10-a'`))?.ended_at), 8);
});
