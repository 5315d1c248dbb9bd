import test from 'ava';
import { sqliteExecutor } from '../../src/store/index.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { principalFor } from '../../src/auth/index.ts';
import { createConnection } from '../../src/data/connections/index.ts';
import { createItem } from '../../src/knowledge/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// The real data plane behind the MCP tools: no fake ports here.
let t0: TestApp;
test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, 'alpha', 'wh.duckdb', (await duckdbFixture()).path!);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  const s = t0.app.services;
  const admin = t0.user({ orgId: t0.org('alpha'), role: 'admin' });
  await createConnection({ store: s.data.store, clock: s.clock, secretBox: s.secretBox, fileRoots: s.config.data.warehouseRoots, checkHost: s.data.checkHost }, 'alpha', admin.id, {
    id: 'wh',
    name: 'Alpha warehouse',
    type: 'duckdb',
    settings: { path: 'wh.duckdb' },
  });
});
test.after.always(() => t0.stop());

async function client(orgId: string, role: 'user' | 'modeler' | 'admin') {
  const c = new Client({ name: 'data', version: '1' });
  const token = t0.token(t0.user({ orgId: t0.org(orgId), role }), 'mcp');
  await c.connect(new StreamableHTTPClientTransport(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': token } } }));
  return c;
}
const call = async (c: Client, name: string, args: Record<string, unknown> = {}) => (await c.callTool({ name, arguments: args })) as CallToolResult;

test('an admin runs a governed query through run_query; it is logged with source mcp and shows in the catalog', async (t) => {
  const c = await client('alpha', 'admin');
  const r = await call(c, 'run_query', { connection_id: 'wh', sql: 'SELECT country, count(*) AS n FROM customers GROUP BY country ORDER BY country' });
  t.falsy(r.isError, JSON.stringify(r.content));
  t.like(r.structuredContent, { columns: ['country', 'n'], row_count: 3, truncated: false });
  t.regex((r.structuredContent as { csv: string }).csv, /^country,n\r\nFrance,1\r\nGermany,2/);
  t.true(t0.logs.some((l) => l['msg'] === 'mcp tool call' && l['tool'] === 'run_query' && l['org_id'] === 'alpha' && l['credential'] === 'mcp_token'));
  const logged = t0.app.services.store.sqlite!.prepare("SELECT count(*) FROM query_log WHERE org_id = 'alpha' AND source = 'mcp'").pluck().get() as number;
  t.true(logged >= 1);
  const cat = await call(c, 'catalog');
  t.like(cat.structuredContent, { connections: [{ id: 'wh', type: 'duckdb', name: 'Alpha warehouse' }] });
  t.true((cat.structuredContent as { tables: { name: string }[] }).tables.some((x) => x.name === 'customers'));
  t.true((cat.structuredContent as { capabilities: string[] }).capabilities.includes('run_query'));
  await c.close();
});

test('a row limit cuts the result and says so', async (t) => {
  const c = await client('alpha', 'admin');
  const r = await call(c, 'run_query', { connection_id: 'wh', sql: 'SELECT * FROM orders', row_limit: 2 });
  t.like(r.structuredContent, { row_count: 2, truncated: true });
  await c.close();
});

test('another organization sees neither the connection nor its data', async (t) => {
  const c = await client('beta', 'admin');
  const cat = await call(c, 'catalog');
  t.deepEqual((cat.structuredContent as { connections: unknown[] }).connections, []);
  const r = await call(c, 'run_query', { connection_id: 'wh', sql: 'SELECT * FROM customers' });
  t.true(r.isError);
  t.notRegex(JSON.stringify(r.content), /Germany/);
  await c.close();
});

test('a modeler may not query an undocumented table, and a write is refused for everyone', async (t) => {
  const m = await client('alpha', 'modeler');
  const refused = await call(m, 'run_query', { connection_id: 'wh', sql: 'SELECT * FROM customers' });
  t.true(refused.isError);
  t.regex(JSON.stringify(refused.content), /QUERY_REFUSED|govern/i);
  await m.close();
  const a = await client('alpha', 'admin');
  t.true((await call(a, 'run_query', { connection_id: 'wh', sql: 'DELETE FROM customers' })).isError);
  await a.close();
  // The refusal's stable code is logged readable: only secrets are redacted, never an error code.
  const logged = t0.logs.filter((l) => l['msg'] === 'mcp tool call' && l['is_error'] === true && l['org_id'] === 'alpha');
  t.true(logged.length >= 2);
  t.true(logged.every((l) => typeof l['error_code'] === 'string' && /^[A-Z_]+$/.test(l['error_code'] as string)), JSON.stringify(logged));
});

test('search_knowledge finds production knowledge of the caller’s organization only, never row-access rules', async (t) => {
  const s = t0.app.services;
  const db = s.store.sqlite!;
  const admin = (await principalFor(sqliteExecutor(db), t0.user({ orgId: 'alpha', role: 'admin' }), 'alpha', 'session', []))!;
  await createItem(s.knowledge, admin, undefined, 'notes', { title: 'Net revenue', body: 'Net revenue excludes cancelled and returned orders.', tags: ['finance'] });
  await createItem(s.knowledge, admin, undefined, 'tables', {
    // Not `orders`: its row filter would reach the other tests' queries, which run at the same time.
    connection: 'wh', schema: 'main', name: 'orders_archive', description: 'One row per order; revenue lives in total_amount.', active: true,
    columns: [], row_filters: [{ filter: "country = 'secretcountry'" }],
  });
  const c = await client('alpha', 'user');
  const r = await call(c, 'search_knowledge', { query: 'revenue secretcountry' });
  const hits = (r.structuredContent as { hits: { kind: string; title: string; snippet: string }[] }).hits;
  t.deepEqual(hits.map((h) => h.kind).sort(), ['note', 'table']);
  t.true(hits.some((h) => h.title === 'Net revenue' && /cancelled/.test(h.snippet)));
  t.false(JSON.stringify(r.content).includes('row_filters'));
  t.false(JSON.stringify(r.content).includes("country = '"));
  await c.close();
  const other = await client('beta', 'admin');
  t.deepEqual((await call(other, 'search_knowledge', { query: 'revenue' })).structuredContent, { hits: [] });
  await other.close();
});
