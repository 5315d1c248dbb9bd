// What the SQL editor completes (web/src/sql/completion-schema.ts), without a browser: the catalog's
// tables of the connection being edited, grouped by schema for lang-sql, and the columns of the
// tables a query reads, to complete without the table's name in front.
import test from 'ava';
import { columnsInScope, completionSchema, type CatalogTable } from '../../web/src/sql/completion-schema.ts';

const TABLES: CatalogTable[] = [
  { connection_id: 'wh', table: 'main.orders', columns: [{ name: 'order_id', type: 'BIGINT' }, { name: 'status', type: 'VARCHAR', description: 'Where the order is' }] },
  { connection_id: 'wh', table: 'main.customers', columns: [{ name: 'customer_id' }, { name: 'status' }] },
  { connection_id: 'wh', table: 'sales.targets', columns: [{ name: 'target' }] },
  { connection_id: 'other', table: 'main.secrets', columns: [{ name: 'password' }] },
];

test('the connection\'s tables only, by schema, with the schema most of them live in as the default', (t) => {
  const { namespace, defaultSchema } = completionSchema(TABLES, 'wh');
  t.deepEqual(Object.keys(namespace).sort(), ['main', 'sales']);
  t.deepEqual(Object.keys(namespace['main']!).sort(), ['customers', 'orders']);
  t.false(JSON.stringify(namespace).includes('password'), 'another connection\'s tables are not offered');
  t.is(defaultSchema, 'main');
  t.deepEqual(namespace['main']!['orders']![1], { label: 'status', type: 'property', detail: 'main.orders · VARCHAR', info: 'Where the order is' });
  t.deepEqual(completionSchema(TABLES, 'none'), { namespace: {}, defaultSchema: undefined });
});

test('the columns of the tables after FROM and JOIN, qualified, quoted or in any case, each name once', (t) => {
  const { namespace, defaultSchema } = completionSchema(TABLES, 'wh');
  const labels = (sql: string) => columnsInScope(sql, namespace, defaultSchema).map((c) => c.label);
  t.deepEqual(labels('SELECT  FROM orders'), ['order_id', 'status']);
  t.deepEqual(labels('select * from "main"."ORDERS" o join customers c on true'), ['order_id', 'status', 'customer_id']);
  t.deepEqual(labels('SELECT * FROM sales.targets'), ['target']);
  t.deepEqual(labels('SELECT * FROM targets'), [], 'outside the default schema a table needs its schema');
  t.deepEqual(labels('SELECT 1'), []);
  t.deepEqual(labels('SELECT * FROM nowhere'), []);
});
