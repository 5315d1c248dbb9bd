// The reads one request's queries share: each read once per request (failures too), keyed by what it
// depends on; a new request reads again, so a change made meanwhile applies from the next request on.
import test from 'ava';
import { requestReads } from '../../../src/data/query/index.ts';
import { sqliteBuilder } from '../../../src/store/sqlite-executor.ts';
import type { DataStore } from '../../../src/data/tables.ts';
import type { GovernanceKnowledge, TableDocsSource } from '../../../src/data/types.ts';

/** A knowledge source that counts its reads and answers the snapshot current at the time of each. */
function countingDocs() {
  let snapshot: GovernanceKnowledge = { commit: 'c1', tables: [], targets: {} };
  const calls: string[] = [];
  const docs: Pick<TableDocsSource, 'governance'> = {
    governance: async (orgId, environmentId, commit) => {
      calls.push(JSON.stringify([orgId, environmentId ?? null, commit ?? null]));
      if (orgId === 'broken') throw new Error('knowledge unreadable');
      return snapshot;
    },
  };
  return { docs, calls, commit: (next: string) => (snapshot = { commit: next, tables: [], targets: {} }) };
}

test("a request reads the knowledge once per organization, environment and commit; the next request reads the head again", async (t) => {
  const k = countingDocs();
  const reads = requestReads();
  const first = await Promise.all([1, 2, 3].map(() => reads.governance(k.docs, 'acme', undefined, undefined)));
  t.deepEqual(first.map((g) => g.commit), ['c1', 'c1', 'c1']);
  t.is(k.calls.length, 1, 'once for the tiles of one request');
  await reads.governance(k.docs, 'acme', 'dev', undefined);
  await reads.governance(k.docs, 'acme', undefined, 'pinned');
  await reads.governance(k.docs, 'other', undefined, undefined);
  t.is(k.calls.length, 4, 'another environment, commit or organization is another read');
  k.commit('c2');
  t.is((await reads.governance(k.docs, 'acme', undefined, undefined)).commit, 'c1', 'within the request, the snapshot it began with');
  t.is((await requestReads().governance(k.docs, 'acme', undefined, undefined)).commit, 'c2', 'the next request sees the change');
  const broken = requestReads();
  await t.throwsAsync(broken.governance(k.docs, 'broken', undefined, undefined), { message: 'knowledge unreadable' });
  await t.throwsAsync(broken.governance(k.docs, 'broken', undefined, undefined), { message: 'knowledge unreadable' });
  t.is(k.calls.filter((c) => c.includes('broken')).length, 1, 'a failure is the same for every query of the request');
});

test('a request reads the warehouse relations once per connection; the next request reads them again', async (t) => {
  let relations: Record<string, unknown>[] = [{ schema_name: 'main', name: 'orders', kind: 'table', reads: null, primary_key: '["id"]' }];
  const sent: unknown[][] = [];
  const builder = sqliteBuilder();
  const store = {
    db: builder,
    all: async (q: { compile(): { parameters: readonly unknown[] } }) => {
      sent.push([...q.compile().parameters]);
      return relations;
    },
  } as unknown as DataStore;
  const reads = requestReads();
  const [a, b] = await Promise.all([reads.relations(store, 'acme', 'wh'), reads.relations(store, 'acme', 'wh')]);
  t.is(a, b);
  t.deepEqual(a, [{ schema: 'main', name: 'orders', kind: 'table', primaryKey: ['id'] }]);
  await reads.relations(store, 'acme', 'wh2');
  t.deepEqual(sent, [['acme', 'wh'], ['acme', 'wh2']]);
  relations = [];
  t.is((await reads.relations(store, 'acme', 'wh')).length, 1, 'within the request, as first read');
  t.deepEqual(await requestReads().relations(store, 'acme', 'wh'), [], 'the next request reads the change');
});
