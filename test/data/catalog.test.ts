// The catalog an assistant's first call and `sextant catalog` read: every active documented table
// with its columns and governed metrics, the most used first, also on a fresh installation.
import test from 'ava';
import { sqliteExecutor } from '../../src/store/index.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findUserByEmail } from '../../src/auth/index.ts';
import { getCatalog, logQuery } from '../../src/data/index.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

type Table = { connection_id: string; table: string; query_count: number; description?: string; columns: { name: string }[]; metrics: { name: string; filter?: string }[]; coverage?: { first: string; last: string } };

let t0: TestApp;
let analyst: string;
let admin: string;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '500' });
  const db = t0.app.services.store.sqlite!;
  analyst = t0.token((await findUserByEmail(sqliteExecutor(db), 'analyst@demo.sextant.local'))!, 'api', DEMO_ORG_ID);
  admin = t0.token((await findUserByEmail(sqliteExecutor(db), 'admin@demo.sextant.local'))!, 'api', DEMO_ORG_ID);
});
test.after.always(() => t0.stop());

const catalog = async (token: string) => (await call(t0, 'GET', '/api/cli/catalog', { token })).body as { top_tables: Table[] };

test.serial('on a fresh installation the catalog lists every documented table with its columns, metrics and coverage', async (t) => {
  const { top_tables } = await catalog(analyst);
  t.deepEqual(top_tables.map((x) => [x.table, x.query_count]), [['main.customers', 0], ['main.order_items', 0], ['main.orders', 0], ['main.products', 0]]);
  const orders = top_tables.find((x) => x.table === 'main.orders')!;
  t.is(orders.description, 'One row per customer order.');
  t.true(orders.columns.some((c) => c.name === 'order_date'));
  t.deepEqual(orders.metrics.map((m) => m.name), ['revenue', 'order_count', 'average_order_value']);
  t.is(orders.metrics[0]!.filter, "status IN ('completed', 'shipped')");
  t.like(orders.coverage, { first: '2022-01-01', last: '2026-10-31' });
});

test.serial('the MCP catalog, an assistant’s first call, shows the same tables and metrics', async (t) => {
  const user = (await findUserByEmail(t0.app.services.executor, 'analyst@demo.sextant.local'))!;
  const c = new Client({ name: 'catalog', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': t0.token(user, 'mcp', DEMO_ORG_ID) } } }));
  t.teardown(() => c.close());
  const r = (await c.callTool({ name: 'catalog', arguments: {} })) as CallToolResult;
  const tables = (r.structuredContent as { tables: { name: string; metrics: { name: string }[]; columns: unknown[]; coverage?: unknown }[] }).tables;
  t.deepEqual(tables.map((x) => x.name), ['customers', 'order_items', 'orders', 'products']);
  t.deepEqual(tables.find((x) => x.name === 'order_items')!.metrics.map((m) => m.name), ['units', 'revenue']);
  t.true(tables.every((x) => x.columns.length > 0));
  t.like(tables.find((x) => x.name === 'orders')!.coverage, { first: '2022-01-01' });
});

test.serial('tables the organization queries rank first', async (t) => {
  for (let i = 0; i < 2; i++) {
    const res = await call(t0, 'POST', '/api/context-agent/execute-query', { token: admin, body: { sql: 'SELECT count(*) FROM main.products', connection_id: 'demo_warehouse' } });
    t.is(res.status, 200);
  }
  const { top_tables } = await catalog(analyst);
  t.deepEqual(top_tables[0], { ...top_tables[0]!, table: 'main.products', query_count: 2 });
});

test.serial('another organization sees none of these tables', async (t) => {
  const other = t0.token(t0.user({ orgId: t0.org('elsewhere'), role: 'admin' }));
  t.deepEqual((await catalog(other)).top_tables, []);
  t.is((await call(t0, 'GET', '/api/cli/catalog')).status, 401);
});

test('the catalog holds at most 50 tables; inactive ones only appear to admins who queried them', async (t) => {
  const docs = createMemoryTableDocs();
  const tables = Array.from({ length: 60 }, (_, i) => ({ connection: 'wh', schema: 'main', name: `t${String(i).padStart(2, '0')}`, active: i !== 3 }));
  const org = t0.org('many-tables');
  const adminUser = t0.user({ orgId: org, role: 'admin' });
  docs.setTables(org, undefined, tables);
  const deps = { ...t0.app.services.data, docs };
  const user = { userId: 'u', email: 'u@x', orgId: org, baseOrgId: org, role: 'user' as const, permissions: [], credential: 'session' as const, scopes: [] };
  const c = await getCatalog(deps, user, undefined);
  t.is(c.top_tables.length, 50);
  t.false(c.top_tables.some((x) => x.table === 'main.t03'));
  t.deepEqual(c.top_tables.slice(0, 3).map((x) => x.table), ['main.t00', 'main.t01', 'main.t02']);
  await logQuery(deps.store, t0.clock, { orgId: org, userId: adminUser.id, connectionId: 'wh', environmentId: undefined, sql: 'SELECT 1 FROM main.t03', tables: ['main.t03'], status: 'ok', rowCount: 1, durationMs: 1, source: 'api' });
  const asAdmin = await getCatalog(deps, { ...user, role: 'admin' }, undefined);
  t.like(asAdmin.top_tables[0], { table: 'main.t03', query_count: 1, metrics: [] });
  t.is(asAdmin.top_tables.length, 50);
  t.false((await getCatalog(deps, user, undefined)).top_tables.some((x) => x.table === 'main.t03'));
});
