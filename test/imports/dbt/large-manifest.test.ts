// A manifest of several thousand nodes (3,000 models of 20 columns, their tests, 150 semantic models
// and 300 metrics): imported in one commit within bounded memory, and re-imported unchanged without a
// commit, faster than the first time. The warehouse's side answers from memory (this measures the import).
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateProject } from '../../helpers/dbt-generated.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import type { WarehouseRelation } from '../../../src/imports/dbt/index.ts';

let t0: TestApp;
let token: string;
let manifestPath: string;
let relations: WarehouseRelation[];

test.before(async () => {
  const generated = generateProject({ models: 3000, columns: 20, metrics: 300 });
  relations = generated.relations;
  manifestPath = join(mkdtempSync(join(tmpdir(), 'sextant-dbt-large-')), 'manifest.json');
  writeFileSync(manifestPath, JSON.stringify(generated.manifest));
  t0 = await startTestApp();
  t0.org('large-org');
  token = t0.session(t0.user({ orgId: 'large-org', role: 'admin' }));
  t0.app.services.imports.warehouse = { relationsOf: async () => ({ dialect: 'postgresql', relations }) };
});
test.after.always(() => t0?.stop());

async function importOnce(environmentId?: string) {
  const form = new FormData();
  form.append('connection_id', 'wh');
  if (environmentId) form.append('environment_id', environmentId);
  form.append('manifest', new Blob([readFileSync(manifestPath)]), 'manifest.json');
  const started = performance.now();
  const res = await t0.fetch('/api/import/dbt', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { environment_id: string; commit: string | null; metrics: number; counts: { tables: Record<string, number> } };
  return { status: res.status, body, ms: performance.now() - started };
}

test('several thousand nodes import in one commit within bounded memory, and re-import unchanged without a commit', async (t) => {
  t.timeout(600_000);
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const first = await importOnce();
  clearInterval(sampler);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.like(first.body.counts.tables, { created: 3000, updated: 0, deleted: 0 });
  t.is(first.body.metrics, 300);
  t.truthy(first.body.commit);
  const history = await t0.fetch(`/api/knowledge/model/history`, { headers: { authorization: `Bearer ${token}`, 'x-service-environment': first.body.environment_id } });
  const commits = ((await history.json()) as { commits?: { message: string }[] }).commits ?? [];
  t.is(commits.filter((c) => c.message.startsWith('Import dbt project')).length, 1, 'one commit for the lot');
  const grown = (peak - base) / 1024 / 1024;
  t.log(`first import ${Math.round(first.ms)} ms, memory +${Math.round(grown)} MB over ${Math.round(base / 1024 / 1024)} MB`);
  t.true(grown < 300, `the import grew the process by ${Math.round(grown)} MB`);
  const again = await importOnce(first.body.environment_id);
  t.is(again.status, 200);
  t.is(again.body.commit, null);
  t.like(again.body.counts.tables, { created: 0, updated: 0, unchanged: 3000, deleted: 0 });
  t.log(`unchanged re-import ${Math.round(again.ms)} ms`);
  t.true(again.ms < first.ms, 'an unchanged re-import writes nothing and is faster than the first');
});
