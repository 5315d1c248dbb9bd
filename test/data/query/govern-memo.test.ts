// The governance memo: a guard verdict kept by text and dialect; a rewrite kept under the knowledge
// snapshot, the connection and the row filters as rendered for the caller, so that callers whose
// filters differ anywhere on the connection never get each other's statement. Failures are not kept.
import test from 'ava';
import { governMemo, type RewriteKey } from '../../../src/data/query/govern-memo.ts';
import type { GuardedQuery } from '../../../src/data/guard/index.ts';
import type { RlsUser } from '../../../src/data/rls/index.ts';
import type { TableDoc } from '../../../src/data/types.ts';

const DOCS: TableDoc[] = [
  { connection: 'wh', schema: 'main', name: 'orders', row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] },
  { connection: 'wh', schema: 'main', name: 'notes', row_filters: [{ filter: 'team IN {{user.groups}}', groups: ['sales'] }] },
  { connection: 'other', schema: 'main', name: 'orders', row_filters: [{ filter: 'owner = {{user.email}}' }] },
];
const user = (id: string, attributes: Record<string, string>, more: Partial<RlsUser> = {}): RlsUser => ({ id, email: `${id}@example.com`, role: 'user', attributes, groups: [], ...more });
const key = (u: RlsUser, more: Partial<RewriteKey> = {}): RewriteKey => ({ sql: 'SELECT * FROM orders', dialect: 'duckdb', connectionId: 'wh', defaultSchema: 'main', docs: DOCS, relations: [], user: u, ...more });

/** A rewrite that says who it was made for, and counts its calls. */
function rewriter() {
  const calls: string[] = [];
  return { calls, apply: (u: RlsUser) => async () => (calls.push(u.id), `rewritten for ${u.id}`) };
}

test('callers whose rendered filters agree share a rewrite; any difference on the connection makes another', async (t) => {
  const memo = governMemo();
  const r = rewriter();
  const ann = user('ann', { country: 'France' });
  const bob = user('bob', { country: 'France' }, { email: 'bob@other.example' });
  const cid = user('cid', { country: 'Germany' });
  const dee = user('dee', { country: 'France' }, { groups: ['sales'] });
  const admin = user('eve', { country: 'Germany' }, { role: 'admin' });
  const root = user('fay', { country: 'Japan' }, { role: 'admin' });
  t.is(await memo.rewrite(key(ann), r.apply(ann)), 'rewritten for ann');
  // Bob's email differs, but only another connection's filter reads it.
  t.is(await memo.rewrite(key(bob), r.apply(bob)), 'rewritten for ann');
  t.is(await memo.rewrite(key(cid), r.apply(cid)), 'rewritten for cid');
  // Dee's group brings a filter on a table the statement does not read: still another identity.
  t.is(await memo.rewrite(key(dee), r.apply(dee)), 'rewritten for dee');
  // Admins are exempt from the country filter, whatever their country.
  t.is(await memo.rewrite(key(admin), r.apply(admin)), 'rewritten for eve');
  t.is(await memo.rewrite(key(root), r.apply(root)), 'rewritten for eve');
  t.deepEqual(r.calls, ['ann', 'cid', 'dee', 'eve']);
});

test('a rewrite is kept per knowledge snapshot, statement, connection, schema and relations', async (t) => {
  const memo = governMemo();
  const r = rewriter();
  const ann = user('ann', { country: 'France' });
  await memo.rewrite(key(ann), r.apply(ann));
  await memo.rewrite(key(ann, { docs: structuredClone(DOCS) }), r.apply(ann));
  await memo.rewrite(key(ann, { sql: 'SELECT 1 FROM orders' }), r.apply(ann));
  await memo.rewrite(key(ann, { connectionId: 'other' }), r.apply(ann));
  await memo.rewrite(key(ann, { defaultSchema: 'sales' }), r.apply(ann));
  await memo.rewrite(key(ann, { relations: [{ schema: 'main', name: 'orders', kind: 'view', reads: [] }] }), r.apply(ann));
  await memo.rewrite(key(ann), r.apply(ann));
  t.is(r.calls.length, 6);
});

test('guard verdicts are kept by text, dialect, pass and bound values; refusals are not kept', async (t) => {
  const memo = governMemo();
  let checks = 0;
  const verdict = { dialect: 'duckdb', tables: [], functions: [], tree: {} } as unknown as GuardedQuery;
  const ok = async () => (checks++, verdict);
  t.is(await memo.guard('SELECT 1', 'duckdb', false, [], ok), verdict);
  t.is(await memo.guard('SELECT 1', 'duckdb', false, [], ok), verdict);
  await memo.guard('SELECT 1', 'sqlite', false, [], ok);
  await memo.guard('SELECT 1', 'duckdb', true, [], ok);
  t.is(checks, 3);
  // The guard checks the values themselves (their count, a NUL in a text), so other values are another verdict.
  await memo.guard('SELECT $1', 'duckdb', false, [{ type: 'text', value: 'a' }], ok);
  await memo.guard('SELECT $1', 'duckdb', false, [{ type: 'text', value: 'b' }], ok);
  t.is(checks, 5);
  const refuse = async (): Promise<GuardedQuery> => (checks++, Promise.reject(new Error('refused')));
  await t.throwsAsync(memo.guard('DELETE', 'duckdb', false, [], refuse));
  await t.throwsAsync(memo.guard('DELETE', 'duckdb', false, [], refuse));
  t.is(checks, 7, 'asked again');
});
