// The OAuth clients a user connected give the same answers on SQLite and PostgreSQL: listed from the
// user's live grants only (never another user's, even one whose id is a prefix of theirs), and disconnecting
// deletes the grant with everything issued from it, 404 for anyone else's.
import { sql } from 'kysely';
import { disconnectClient, listConnectedClients } from '../../src/auth/oauth/connected-clients.ts';
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { AppError } from '../../src/errors.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';

const ann = { userId: 'ann', orgId: 'o1' } as Principal;
const an = { userId: 'an', orgId: 'o1' } as Principal;
const codeOf = (err: unknown) => (err instanceof AppError ? err.code : String(err));

async function model(x: Executor, row: { model: string; id: string; payload: object; grant?: string; account?: string; client?: string; at?: number; expires?: number | null }) {
  await x.run(sql`INSERT INTO oauth_models (model, id, payload, grant_id, account_id, client_id, created_at, expires_at)
    VALUES (${row.model}, ${row.id}, ${JSON.stringify(row.payload)}, ${row.grant ?? null}, ${row.account ?? null}, ${row.client ?? null}, ${row.at ?? 0}, ${row.expires ?? null})`);
}

async function seed(x: Executor): Promise<void> {
  await model(x, { model: 'Client', id: 'c1', payload: { client_name: 'Claude', client_uri: 'https://claude.example' } });
  await model(x, { model: 'Grant', id: 'g-old', payload: { openid: { scope: 'openid' } }, account: 'ann:o1', client: 'c1', at: 1 });
  await model(x, { model: 'Grant', id: 'g-new', payload: { resources: { 'https://s/ai/mcp': 'mcp:tools' } }, account: 'ann:o2', client: 'c1', at: 2 });
  await model(x, { model: 'Grant', id: 'g-gone', payload: {}, account: 'ann:o1', client: 'c1', at: 3, expires: 10 });
  await model(x, { model: 'Grant', id: 'g-an', payload: {}, account: 'an:o1', client: 'c1', at: 4 });
  await model(x, { model: 'AccessToken', id: 'at1', payload: {}, grant: 'g-old', account: 'ann:o1', client: 'c1' });
}

dialectTest("a user's live grants are listed newest first with their clients, nobody else's", async (t, { x }) => {
  await seed(x);
  const deps = { store: x, clock: new FakeClock(1000) };
  const listed = await listConnectedClients(deps, ann);
  t.deepEqual(listed.map((c) => c.grant_id), ['g-new', 'g-old']);
  t.like(listed[0], { client_name: 'Claude', org_id: 'o2', scopes: ['mcp:tools'] });
  t.deepEqual((await listConnectedClients(deps, an)).map((c) => c.grant_id), ['g-an']);
});

dialectTest('disconnecting deletes the grant with its tokens; another user or a second try gets 404', async (t, { x }) => {
  await seed(x);
  const deps = { store: x, clock: new FakeClock(1000) };
  t.is(codeOf(await disconnectClient(deps, an, 'g-old').catch((e: unknown) => e)), 'CONNECTED_CLIENT_NOT_FOUND');
  t.is((await x.all(sql`SELECT id FROM oauth_models WHERE grant_id = 'g-old'`)).length, 1, 'untouched by the refusal');
  await disconnectClient(deps, ann, 'g-old');
  t.deepEqual(await x.all(sql`SELECT id FROM oauth_models WHERE grant_id = 'g-old' OR id = 'g-old'`), []);
  t.is(codeOf(await disconnectClient(deps, ann, 'g-old').catch((e: unknown) => e)), 'CONNECTED_CLIENT_NOT_FOUND');
  t.deepEqual((await listConnectedClients(deps, ann)).map((c) => c.grant_id), ['g-new']);
});
