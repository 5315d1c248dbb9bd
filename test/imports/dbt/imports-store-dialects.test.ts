// The dbt_imports table gives the same answers on SQLite and PostgreSQL: summaries kept per
// environment, newest first, another organization's never listed, and gone with their environment.
import { sql } from 'kysely';
import { listImports, saveImport } from '../../../src/imports/dbt/imports-store.ts';
import { emptyCounts, type ImportSummary } from '../../../src/imports/dbt/summary.ts';
import { dialectTest } from '../../helpers/executors.ts';

const summary = (environment: string, commit: string | null): ImportSummary => ({
  environment_id: environment,
  environment_created: false,
  project: 'jaffle_shop',
  generated_at: '2025-10-11T00:05:38Z',
  connection_id: 'wh',
  commit,
  counts: emptyCounts(),
  metrics: 2,
  skipped: [{ unique_id: 'model.jaffle_shop.x', reason: 'no relation main.x on connection wh' }],
  conflicts: [],
});

dialectTest('import summaries are kept per environment, newest first, and go with their environment', async (t, { x }) => {
  for (const org of ['acme', 'other']) await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${org}, ${org}, 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u1', 'u1@example.com', 0)`);
  for (const [id, org] of [['env_a', 'acme'], ['env_b', 'other']]) {
    await x.run(sql`INSERT INTO environments (id, org_id, name, slug, color, created_at, last_activity_at) VALUES (${id}, ${org}, ${id}, ${id}, '#fff', 0, 0)`);
  }
  await saveImport(x, { orgId: 'acme', userId: 'u1', at: 1000, summary: summary('env_a', 'c1') });
  await saveImport(x, { orgId: 'acme', userId: 'u1', at: 2000, summary: summary('env_a', null) });
  await saveImport(x, { orgId: 'other', userId: 'u1', at: 3000, summary: summary('env_b', 'c3') });
  const listed = await listImports(x, 'acme', 'env_a');
  t.deepEqual(listed.map((i) => i.summary.commit), [null, 'c1']);
  t.is(listed[0]!.created_at, new Date(2000).toISOString());
  t.deepEqual(listed[1]!.summary, summary('env_a', 'c1'));
  t.deepEqual(await listImports(x, 'acme', 'env_b'), [], 'another organization\'s environment lists nothing');
  await x.run(sql`DELETE FROM environments WHERE id = 'env_a'`);
  t.deepEqual(await listImports(x, 'acme', 'env_a'), []);
});
