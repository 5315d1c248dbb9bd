// The relations sync records are saved whole on SQLite and PostgreSQL, however many a schema holds.
import { sql } from 'kysely';
import { FakeClock } from '../../src/clock.ts';
import { loadRelations, saveRelations, type WarehouseRelation } from '../../src/data/sync/relations.ts';
import { twoOrganizations } from '../helpers/data-store.ts';
import { dialectTest } from '../helpers/executors.ts';

dialectTest('a schema of 9,000 relations (past both dialects\' parameter limits in one statement) is saved whole, and replaced whole', async (t, { x }) => {
  const store = await twoOrganizations(x);
  await x.run(sql`INSERT INTO connections (org_id, id, name, type, settings, created_at, updated_at) VALUES ('acme', 'wh', 'wh', 'duckdb', '{}', 0, 0)`);
  const clock = new FakeClock();
  const partitions = (n: number, prefix: string): WarehouseRelation[] =>
    Array.from({ length: n }, (_, i) => ({ schema: 'main', name: `${prefix}_${i}`, kind: 'partition', reads: [{ name: 'events' }], primaryKey: ['id'] }));
  await saveRelations(store, clock, 'acme', 'wh', partitions(9_000, 'events_p'));
  t.is((await loadRelations(store, 'acme', 'wh')).length, 9_000);
  await saveRelations(store, clock, 'acme', 'wh', partitions(4_500, 'events_q'));
  const saved = await loadRelations(store, 'acme', 'wh');
  t.is(saved.length, 4_500);
  t.true(saved.every((r) => r.name.startsWith('events_q_')));
});
