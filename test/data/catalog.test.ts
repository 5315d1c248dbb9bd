// The catalog an assistant's first call and `sextant catalog` read: every active documented table
// with its columns and governed metrics, the most used first, also on a fresh installation.
import test from 'ava';
import { sqliteExecutor } from '../../src/store/index.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findUserByEmail } from '../../src/auth/index.ts';
import { getCatalog, logQuery, topTables } from '../../src/data/index.ts';
import type { TableDoc } from '../../src/data/types.ts';
import { recordChange } from '../../src/shared/derived-list.ts';
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
  t.like(orders.coverage, { first: '2022-01-05', last: '2026-10-31' });
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
  t.like(tables.find((x) => x.name === 'orders')!.coverage, { first: '2022-01-05' });
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

test('the catalog of a documentation list made from the one before by a change ranks as a fresh one and as a full sort would', async (t) => {
  const org = t0.org('catalog-derived');
  const adminUser = t0.user({ orgId: org, role: 'admin' });
  const doc = (i: number, active = i % 7 !== 3): TableDoc => ({ connection: i % 3 === 0 ? 'lake' : 'wh', schema: i % 2 ? 'Main' : 'main', name: `t${String(i).padStart(3, '0')}`, active, columns: [{ name: 'id' }] });
  let docs: TableDoc[] = Array.from({ length: 120 }, (_, i) => doc(i));
  let current = docs;
  const deps = { ...t0.app.services.data, docs: { ...createMemoryTableDocs(), listTables: async () => current } };
  const used = (table: string, connectionId = 'wh') => logQuery(deps.store, t0.clock, { orgId: org, userId: adminUser.id, connectionId, environmentId: undefined, sql: `SELECT 1 FROM ${table}`, tables: [table], status: 'ok', rowCount: 1, durationMs: 1, source: 'api' });
  // Used: documented ones (one named in another case), one nobody documented, and two with equal counts.
  for (const [table, times] of [['main.t002', 3], ['MAIN.t004', 2], ['main.nobody', 2], ['Main.t005', 1], ['main.t010', 1]] as const) for (let k = 0; k < times; k++) await used(table);
  await used('main.t003', 'lake');
  const user = { userId: adminUser.id, email: 'a@x', orgId: org, baseOrgId: org, role: 'admin' as const, permissions: [], credential: 'session' as const, scopes: [] };
  // The ranking as it was: every table named and counted, then one sort of them all.
  const reference = async (list: TableDoc[], admin: boolean, limit: number) => {
    const usage = new Map((await topTables(deps.store, org, 10_000)).map((u) => [`${u.connection_id}\u0000${u.table}`.toLowerCase(), u]));
    const active = list.filter((d) => d.active !== false).map((d) => ({ connection_id: d.connection, table: `${d.schema}.${d.name}` }));
    const keys = new Set(active.map((a) => `${a.connection_id}\u0000${a.table}`.toLowerCase()));
    const ranked = active.map((a) => ({ ...a, query_count: usage.get(`${a.connection_id}\u0000${a.table}`.toLowerCase())?.query_count ?? 0 }));
    if (admin) for (const [key, u] of usage) if (!keys.has(key)) ranked.push({ connection_id: u.connection_id, table: u.table, query_count: u.query_count });
    return ranked.sort((a, b) => b.query_count - a.query_count || a.connection_id.localeCompare(b.connection_id) || a.table.localeCompare(b.table)).slice(0, limit).map((r) => [r.connection_id, r.table, r.query_count]);
  };
  const shown = async (list: TableDoc[], admin: boolean, limit: number) => {
    current = list;
    return (await getCatalog(deps, admin ? user : { ...user, role: 'user' }, undefined, limit)).top_tables.map((r) => [r.connection_id, r.table, r.query_count]);
  };
  let next = 1000;
  for (let round = 0; round < 30; round++) {
    // Every fifth round table t002 is replaced: withdrawn, then active again.
    const removed = docs.filter((d, i) => (i * 31 + round * 17) % 97 === 0 || (round % 5 === 0 && d.name === 't002'));
    const added = [doc(next++), doc(next++, false), ...(round % 5 === 0 ? [doc(2, round % 10 !== 0)] : [])];
    const list = docs.filter((d) => !removed.includes(d));
    for (const a of added) list.splice((round * 13) % (list.length + 1), 0, a);
    recordChange(list, { base: docs, removed, added });
    for (const [admin, limit] of [[true, 50], [false, 50], [true, 1000]] as const) {
      const derived = await shown(list, admin, limit);
      t.deepEqual(derived, await shown([...list], admin, limit), `round ${round}: as a fresh list`);
      t.deepEqual(derived, await reference(list, admin, limit), `round ${round}: as a full sort`);
    }
    docs = list;
  }
});
