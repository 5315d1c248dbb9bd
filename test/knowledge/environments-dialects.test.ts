// The environments' rows on SQLite and PostgreSQL: found, listed, changed and removed only within their
// organization; activity only moves forward; slugs stay unique per organization, also when two
// replicas insert one at once; the expiry finds idle throwaway environments of every organization.
import { sql } from 'kysely';
import {
  environmentNamed,
  findEnvironment,
  freeSlug,
  idleThrowawayRows,
  insertEnvironment,
  listEnvironmentRows,
  removeEnvironment,
  touchEnvironment,
  updateEnvironment,
  type EnvironmentRow,
} from '../../src/knowledge/environments-store.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';

async function seed(x: Executor): Promise<void> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0), ('other', 'Other', 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u1', 'u1@example.com', 0)`);
}

const env = (id: string, orgId: string, slug: string, over: Partial<EnvironmentRow> = {}): EnvironmentRow => ({
  id,
  org_id: orgId,
  name: slug,
  slug,
  color: '#1e88e5',
  source_env_id: null,
  throwaway: 0,
  targets: '{}',
  created_by: 'u1',
  created_at: 100,
  last_activity_at: 100,
  ...over,
});

dialectTest('environments are read, changed and removed only within their organization', async (t, { x }) => {
  await seed(x);
  t.true(await insertEnvironment(x, env('e1', 'acme', 'dev')));
  t.true(await insertEnvironment(x, env('e2', 'other', 'dev')), 'another organization may use the same slug');
  t.true(await insertEnvironment(x, env('e3', 'acme', 'fix', { throwaway: 1, created_at: 200 })));
  t.deepEqual(await findEnvironment(x, 'acme', 'e1'), env('e1', 'acme', 'dev'));
  t.is(await findEnvironment(x, 'acme', 'e2'), undefined);
  t.deepEqual((await listEnvironmentRows(x, 'acme')).map((e) => e.id), ['e1', 'e3']);
  t.deepEqual((await listEnvironmentRows(x, 'acme', { throwaway: false })).map((e) => e.id), ['e1']);
  t.deepEqual((await listEnvironmentRows(x, 'acme', { throwaway: true })).map((e) => e.id), ['e3']);

  t.is(await updateEnvironment(x, 'acme', 'e2', { targets: '{"wh":{"schema":"x"}}' }, 500), undefined);
  await touchEnvironment(x, 'acme', 'e2', 500);
  await removeEnvironment(x, 'acme', 'e2');
  t.deepEqual(await findEnvironment(x, 'other', 'e2'), env('e2', 'other', 'dev'), "another organization's environment is untouched");

  t.like(await updateEnvironment(x, 'acme', 'e3', { throwaway: 0 }, 300), { throwaway: 0, last_activity_at: 300, targets: '{}' });
  t.like(await updateEnvironment(x, 'acme', 'e1', { targets: '{"wh":{"schema":"dev"}}' }, 400), { targets: '{"wh":{"schema":"dev"}}', last_activity_at: 400, throwaway: 0 });
  await removeEnvironment(x, 'acme', 'e1');
  t.is(await findEnvironment(x, 'acme', 'e1'), undefined);
});

dialectTest('activity only moves forward', async (t, { x }) => {
  await seed(x);
  await insertEnvironment(x, env('e1', 'acme', 'dev'));
  await touchEnvironment(x, 'acme', 'e1', 500);
  await touchEnvironment(x, 'acme', 'e1', 300);
  t.is((await findEnvironment(x, 'acme', 'e1'))?.last_activity_at, 500);
});

dialectTest('slugs are unique per organization: the next free one is numbered, a taken one is refused', async (t, { x, other }) => {
  await seed(x);
  t.is(await freeSlug(x, 'acme', 'dev'), 'dev');
  await insertEnvironment(x, env('e1', 'acme', 'dev'));
  await insertEnvironment(x, env('e2', 'acme', 'dev-2'));
  await insertEnvironment(x, env('e3', 'other', 'dev-3'));
  t.is(await freeSlug(x, 'acme', 'dev'), 'dev-3');
  t.is(await freeSlug(x, 'acme', 'de'), 'de', 'a prefix of a taken slug is free');
  // Two replicas that read the same free slug insert at once: one row wins, the other is told.
  const won = await Promise.all([insertEnvironment(x, env('e4', 'acme', 'dev-3')), insertEnvironment(other, env('e5', 'acme', 'dev-3'))]);
  t.deepEqual(won.toSorted(), [false, true]);
  t.is((await listEnvironmentRows(x, 'acme')).filter((e) => e.slug === 'dev-3').length, 1);
});

dialectTest('names are unique per organization ignoring ASCII case, also when two replicas insert one at once', async (t, { x, other }) => {
  await seed(x);
  t.true(await insertEnvironment(x, env('e1', 'acme', 'dev', { name: 'Dev' })));
  t.true(await insertEnvironment(x, env('e2', 'other', 'dev', { name: 'Dev' })), 'another organization may use the same name');
  t.false(await insertEnvironment(x, env('e3', 'acme', 'dev-2', { name: 'DEV' })));
  t.is((await environmentNamed(x, 'acme', 'dEv'))?.id, 'e1');
  t.is(await environmentNamed(x, 'acme', 'Dév'), undefined, 'only ASCII letters are folded');
  const won = await Promise.all([insertEnvironment(x, env('e4', 'acme', 'x-1', { name: 'Fix' })), insertEnvironment(other, env('e5', 'acme', 'x-2', { name: 'fix' }))]);
  t.deepEqual(won.toSorted(), [false, true]);
});

dialectTest('the expiry finds throwaway environments idle since the cutoff, in every organization', async (t, { x }) => {
  await seed(x);
  await insertEnvironment(x, env('e1', 'acme', 'a', { throwaway: 1, last_activity_at: 100 }));
  await insertEnvironment(x, env('e2', 'other', 'b', { throwaway: 1, last_activity_at: 200 }));
  await insertEnvironment(x, env('e3', 'acme', 'c', { throwaway: 1, last_activity_at: 201 }));
  await insertEnvironment(x, env('e4', 'acme', 'd', { throwaway: 0, last_activity_at: 0 }));
  t.deepEqual((await idleThrowawayRows(x, 200)).map((e) => e.id), ['e1', 'e2']);
});
