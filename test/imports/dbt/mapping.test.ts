// The pure parts of the dbt import: relation names of every adapter's quoting, the YAML the import
// writes read back as written, MetricFlow metrics mapped to governed metrics or skipped with a reason,
// the manifest cut down to what the import reads, and a table's source hash following each input of
// its documentation.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import type { DbtCatalog, DbtManifest } from '../../../src/imports/dbt/artifacts.ts';
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

test('a table\'s source changes with every input of its documentation, and only with them', async (t) => {
  const dir = new URL('../../../fixtures/dbt/bigquery_shop/', import.meta.url).pathname;
  const catalogOf = () => JSON.parse(readFileSync(`${dir}catalog.json`, 'utf8')) as DbtCatalog;
  const relationsOf = () => [
    { schema: 'analytics', name: 'orders', columns: [{ name: 'order_id', type: 'INTEGER' }, { name: 'amount', type: 'DECIMAL(10,2)' }] },
    { schema: 'analytics', name: 'customers', columns: [{ name: 'customer_id', type: 'INTEGER' }, { name: 'name', type: 'VARCHAR' }] },
  ];
  const map = async (change: (a: { manifest: DbtManifest; catalog: DbtCatalog; relations: ReturnType<typeof relationsOf> }) => void = () => {}, connectionId = 'wh') => {
    const a = { manifest: await readManifest({ path: `${dir}manifest.json` }), catalog: catalogOf(), relations: relationsOf() };
    change(a);
    const tables = mapTables({ ...a, connectionId, skipped: [] });
    return Object.fromEntries(tables.map((x) => [x.relation.name, { source: x.source, doc: JSON.stringify(x.doc) }]));
  };
  const base = await map();
  t.deepEqual(await map(), base, 'the same inputs, the same source');
  const changes: [string, string, Parameters<typeof map>[0], string?][] = [
    ['a node description', 'orders', (a) => void (a.manifest.nodes['model.bq_shop.orders']!.description = 'changed')],
    ['a documented column', 'orders', (a) => void (a.manifest.nodes['model.bq_shop.orders']!.columns_json = a.manifest.nodes['model.bq_shop.orders']!.columns_json!.replace('Who ordered.', 'Who bought.'))],
    ['a catalog type', 'orders', (a) => void (a.catalog.nodes['model.bq_shop.orders']!.columns['amount']!.type = 'BIGNUMERIC')],
    ['a warehouse column', 'customers', (a) => void a.relations[1]!.columns.push({ name: 'email', type: 'VARCHAR' })],
    ['a warehouse type', 'customers', (a) => void (a.relations[1]!.columns[1]!.type = 'TEXT')],
    ['a test fact', 'customers', (a) => void (a.manifest.nodes['test.bq_shop.unique_customers_customer_id'] = { unique_id: 'test.bq_shop.unique_customers_customer_id', resource_type: 'test', name: 'unique', attached_node: 'model.bq_shop.customers', column_name: 'name', test_metadata: { name: 'unique', kwargs: {} } })],
    ['the connection', 'customers', () => {}, 'other'],
  ];
  for (const [what, table, change, connection] of changes) {
    const after = await map(change, connection);
    t.not(after[table]!.doc, base[table]!.doc, `${what}: the documentation changes`);
    t.not(after[table]!.source, base[table]!.source, `${what}: so does the source`);
  }
  const withMetric = mapTables({ manifest: await readManifest({ path: `${dir}manifest.json` }), catalog: catalogOf(), relations: relationsOf(), connectionId: 'wh', skipped: [] });
  const before = withMetric[0]!.source;
  withMetric[0]!.metrics.push({ name: 'm', sql: 'SUM(amount)' });
  t.not(withMetric[0]!.source, before, 'a metric placed on the table: another source');
});
