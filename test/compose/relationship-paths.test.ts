// The relationships a knowledge search adds: those on the shortest paths between the tables it found,
// so that a planner can join tables that are not neighbours ("customers who bought Electronics").
import test from 'ava';
import type { RelationshipDocument } from '../../src/agent/ports.ts';
import { pathRelationships } from '../../src/compose/relationship-paths.ts';

const rel = (id: string, from: string, to: string, connection = 'w'): RelationshipDocument => ({
  id,
  kind: 'many_to_one',
  from: { connection, schema: 'main', table: from, column: `${to}_id` },
  to: { connection, schema: 'main', table: to, column: `${to}_id` },
});
const ids = (s: Set<RelationshipDocument>) => [...s].map((r) => r.id).sort();
const found = (...tables: string[]) => new Set(tables.map((t) => `w/${t}`));

// customers <- orders <- order_items -> products; suppliers -> products; a long chain a-b-c-d-e.
const all = [
  rel('orders_customers', 'orders', 'customers'),
  rel('items_orders', 'order_items', 'orders'),
  rel('items_products', 'order_items', 'products'),
  rel('products_suppliers', 'products', 'suppliers'),
  rel('ab', 'a', 'b'),
  rel('bc', 'b', 'c'),
  rel('cd', 'c', 'd'),
  rel('de', 'd', 'e'),
];

test('the tables between two found tables come with their relationships', (t) => {
  t.deepEqual(ids(pathRelationships(all, found('customers', 'products'))), ['items_orders', 'items_products', 'orders_customers']);
});

test('a relationship between two found tables is a path of its own; one found table adds nothing', (t) => {
  t.deepEqual(ids(pathRelationships(all, found('orders', 'customers'))), ['orders_customers']);
  t.deepEqual(ids(pathRelationships(all, found('customers'))), []);
  t.deepEqual(ids(pathRelationships(all, found('customers', 'unknown'))), []);
});

test('only shortest paths, and none longer than three relationships', (t) => {
  t.deepEqual(ids(pathRelationships(all, found('customers', 'products', 'suppliers'))), ['items_orders', 'items_products', 'orders_customers', 'products_suppliers']);
  t.deepEqual(ids(pathRelationships(all, found('a', 'd'))), ['ab', 'bc', 'cd']);
  t.deepEqual(ids(pathRelationships(all, found('a', 'e'))), [], 'four relationships apart');
});

test('two shortest paths are both given, for the planner to refuse what it cannot tell apart', (t) => {
  const diamond = [rel('xa', 'x', 'a'), rel('xb', 'x', 'b'), rel('ya', 'y', 'a'), rel('yb', 'y', 'b')];
  t.deepEqual(ids(pathRelationships(diamond, found('x', 'y'))), ['xa', 'xb', 'ya', 'yb']);
});

test('tables of another connection are other tables', (t) => {
  t.deepEqual(ids(pathRelationships([rel('o', 'orders', 'customers', 'other')], found('orders', 'customers'))), []);
});
