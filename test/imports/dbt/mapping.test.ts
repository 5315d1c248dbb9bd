// The pure parts of the dbt import: relation names of every adapter's quoting, the YAML the import
// writes read back as written, MetricFlow metrics mapped to governed metrics or skipped with a reason,
// and the manifest cut down to what the import reads.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import type { DbtManifest } from '../../../src/imports/dbt/artifacts.ts';
import { mapMetrics } from '../../../src/imports/dbt/map-metrics.ts';
import { mapTables } from '../../../src/imports/dbt/map-tables.ts';
import { readManifest } from '../../../src/imports/dbt/read-artifacts.ts';
import { nodeRelation, relationLookup, splitRelationName } from '../../../src/imports/dbt/relation-names.ts';
import type { Skipped } from '../../../src/imports/dbt/summary.ts';
import { yamlText } from '../../../src/imports/dbt/yaml-text.ts';

test('relation names split the way each adapter quotes them', (t) => {
  t.deepEqual(splitRelationName('"jaffle_shop"."main"."orders"'), ['jaffle_shop', 'main', 'orders']);
  t.deepEqual(splitRelationName('`my-project`.`analytics`.`orders`'), ['my-project', 'analytics', 'orders']);
  t.deepEqual(splitRelationName('`my-project.analytics.customers`'), ['my-project', 'analytics', 'customers']);
  t.deepEqual(splitRelationName('[db].[dbo].[Order Lines]'), ['db', 'dbo', 'Order Lines']);
  t.deepEqual(splitRelationName('ANALYTICS.PUBLIC.ORDERS'), ['ANALYTICS', 'PUBLIC', 'ORDERS']);
  t.deepEqual(splitRelationName('"db"."sch"."we""ird.name"'), ['db', 'sch', 'we"ird.name']);
  t.deepEqual(nodeRelation({ relation_name: null, schema: 'main', alias: 'x', name: 'y' }), { schema: 'main', name: 'x' });
  // Snowflake folds unquoted names to upper case; the warehouse's own spelling wins.
  const find = relationLookup([{ schema: 'public', name: 'orders', columns: [] }]);
  t.deepEqual(find({ schema: 'PUBLIC', name: 'ORDERS' })?.name, 'orders');
  t.is(find({ schema: 'public', name: 'missing' }), undefined);
});

test('the YAML the import writes reads back as the value it was written from', (t) => {
  const doc = { a: 'yes', b: '123', c: 'x: y', d: "it's", e: '', f: null, g: [], h: {}, i: [{ name: 'x', list: ['a', 'b'] }, { n: [1, [2]] }], 'odd key': 'line\nbreak', j: '\u2028', k: '#x', l: 'SUM(CASE WHEN a THEN 1 ELSE 0 END)' };
  t.true(isDeepStrictEqual(parse(yamlText(doc)), doc), yamlText(doc));
});

test('MetricFlow metrics become governed metrics when one aggregate over one table expresses them, and are skipped with a reason otherwise', (t) => {
  const manifest = JSON.parse(readFileSync(new URL('../../../fixtures/dbt/jaffle_shop/manifest.json', import.meta.url), 'utf8')) as DbtManifest;
  const relations = Object.values(manifest.nodes).filter((n) => n.resource_type === 'model').map((n) => ({ schema: 'main', name: n.name, columns: [] }));
  const skipped: Skipped[] = [];
  const tables = mapTables({ manifest, catalog: undefined, connectionId: 'wh', relations, skipped });
  t.is(tables.length, 13);
  t.true(skipped.every((s) => s.unique_id.startsWith('source.')), 'the sources have no relation here');
  const { metrics } = mapMetrics(manifest, tables, skipped);
  t.is(metrics, 15);
  const metricsOf = (name: string) => (tables.find((x) => x.relation.name === name)!.doc['metrics'] ?? []) as Record<string, unknown>[];
  const items = metricsOf('order_items');
  t.like(items.find((m) => m['name'] === 'food_revenue_pct'), { expression: '1.0 * SUM(case when is_food_item then product_price else 0 end) / NULLIF(SUM(product_price), 0)', time_column: 'ordered_at' });
  t.like(metricsOf('orders').find((m) => m['name'] === 'new_customer_orders'), { expression: 'SUM(1)', filter: 'customer_order_number = 1' });
  t.like(metricsOf('customers').find((m) => m['name'] === 'average_order_value'), { expression: '(SUM(lifetime_spend_pretax)) / (SUM(count_lifetime_orders))' });
  const reasons = Object.fromEntries(skipped.map((s) => [s.unique_id, s.reason]));
  t.regex(reasons['metric.jaffle_shop.cumulative_revenue']!, /cumulative/);
  t.regex(reasons['metric.jaffle_shop.revenue_growth_mom']!, /offset in time/);
  t.regex(reasons['metric.jaffle_shop.order_gross_profit']!, /more than one table/);
  t.regex(reasons['metric.jaffle_shop.median_revenue']!, /median/);
});

test('a read manifest keeps only what the import reads: no macros, maps, SQL or full configs, and the same mapping', async (t) => {
  const path = new URL('../../../fixtures/dbt/jaffle_shop/manifest.json', import.meta.url).pathname;
  const full = JSON.parse(readFileSync(path, 'utf8')) as DbtManifest & Record<string, unknown>;
  const kept = await readManifest({ path });
  t.deepEqual(Object.keys(kept).sort(), ['exposures', 'metadata', 'metrics', 'nodes', 'saved_queries', 'semantic_models', 'sources']);
  const orders = kept.nodes['model.jaffle_shop.orders'] as unknown as Record<string, unknown>;
  for (const gone of ['raw_code', 'compiled_code', 'checksum', 'fqn', 'refs']) t.false(gone in orders, gone);
  t.deepEqual(Object.keys(orders['config'] as object).sort(), ['enabled', 'materialized', 'meta', 'tags']);
  t.true(JSON.stringify(kept).length * 4 < JSON.stringify(full).length, 'a fraction of the manifest is kept');
  const relations = Object.values(full.nodes).filter((n) => n.resource_type === 'model').map((n) => ({ schema: n.schema!, name: n.alias ?? n.name, columns: [] }));
  const map = (m: DbtManifest) => mapTables({ manifest: m, catalog: undefined, connectionId: 'wh', relations, skipped: [] }).map((x) => x.doc);
  t.deepEqual(map(kept), map(full));
});
