import test from 'ava';
import { version as vegaLiteVersion } from 'vega-lite';
import type { Principal } from '../../src/auth/index.ts';
import { AppError } from '../../src/errors.ts';
import type { AgentEvent } from '../../src/agent/events.ts';
import { memoryChats, memoryKnowledge } from '../../src/agent/memory-ports.ts';
import type { AgentPorts, QueryResult } from '../../src/agent/ports.ts';
import { DEFAULT_TOOLS, executeTool, newRunState } from '../../src/agent/tools/index.ts';
import { relationshipDocs, tableDocs } from '../helpers/agent-warehouse.ts';

const principal: Principal = { userId: 'u1', email: 'u1@example.com', orgId: 'o1', baseOrgId: 'o1', role: 'user', permissions: [], credential: 'session', scopes: [] };
const result = (rows: unknown[][]): QueryResult => ({ columns: [{ name: 'country', type: 'VARCHAR' }, { name: 'n', type: 'BIGINT' }], rows, rowCount: rows.length, truncated: false, executionMs: 1, dialect: 'duckdb' });

function ctx(over: Partial<AgentPorts> = {}) {
  const events: AgentEvent[] = [];
  const ports: AgentPorts = {
    knowledge: memoryKnowledge({ tables: tableDocs(), relationships: relationshipDocs() }),
    queries: { run: async () => result([['Germany', '3'], ['France', '2']]) },
    uploads: { list: async () => [{ fileId: 'f1', name: 'budget.csv', table: 'budget' }], run: async () => result([['x', '1']]) },
    chats: memoryChats(),
    profiles: { profile: async () => ({ name: '', background: '', memories: [] }) },
    ...over,
  };
  const state = newRunState();
  return { events, state, base: { principal, environmentId: undefined, chatId: 'c', ports, rowLimit: 100, state, callId: 'k1', emit: (e: AgentEvent) => events.push(e) } };
}
const call = (name: string, args: unknown) => ({ id: 'k1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
const signal = new AbortController().signal;

test('run_sql keeps the result under a df_key and make_chart draws a Vega-Lite spec from it', async (t) => {
  const c = ctx();
  const out = await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1' }), c.base, 1000, signal);
  t.true(out.ok);
  const dfKey = (JSON.parse(out.content) as { df_key: string }).df_key;
  t.true(c.state.dataframes.has(dfKey));
  const chart = await executeTool(DEFAULT_TOOLS, call('make_chart', { df_key: dfKey, type: 'bar', x: 'country', y: 'n' }), c.base, 1000, signal);
  t.true(chart.ok);
  const spec = c.events.find((e): e is Extract<AgentEvent, { type: 'chart' }> => e.type === 'chart')!.spec as { $schema: string; mark: { type: string }; data: { values: Record<string, unknown>[] }; encoding: { y: { type: string } } };
  // The schema of the Vega-Lite that draws it (the web client's and the server's PNGs): another major version makes the library warn on every chart.
  t.is(spec.$schema, `https://vega.github.io/schema/vega-lite/v${vegaLiteVersion.split('.')[0]}.json`);
  t.is(spec.mark.type, 'bar');
  t.deepEqual(spec.data.values[0], { country: 'Germany', n: 3 });
  t.is(spec.encoding.y.type, 'quantitative');
  t.false('axis' in spec.encoding.y, 'a plain value keeps the axis Vega-Lite gives it');
  t.is(c.state.queries, 1);
});

test('a chart of a share reads its axis in percent, as the result\'s format says', async (t) => {
  const c = ctx();
  const out = await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1', formats: { n: 'percent' } }), c.base, 1000, signal);
  const dfKey = (JSON.parse(out.content) as { df_key: string }).df_key;
  t.true((await executeTool(DEFAULT_TOOLS, call('make_chart', { df_key: dfKey, type: 'bar', x: 'country', y: 'n' }), c.base, 1000, signal)).ok);
  const spec = c.events.find((e): e is Extract<AgentEvent, { type: 'chart' }> => e.type === 'chart')!.spec as { encoding: { y: Record<string, unknown> } };
  t.deepEqual(spec.encoding.y, { field: 'n', type: 'quantitative', axis: { format: '.0%' } });
});

test('a chart of the days of a week draws them as names in their order, and dates by name and value as dates', async (t) => {
  const rows = [['Monday', '3'], ['Tuesday', '5'], ['Sunday', '1']];
  const c = ctx({ queries: { run: async () => ({ ...result(rows), columns: [{ name: 'weekday', type: 'VARCHAR' }, { name: 'n', type: 'BIGINT' }] }) } });
  const out = await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1' }), c.base, 1000, signal);
  const dfKey = (JSON.parse(out.content) as { df_key: string }).df_key;
  t.true((await executeTool(DEFAULT_TOOLS, call('make_chart', { df_key: dfKey, type: 'bar', x: 'weekday', y: 'n' }), c.base, 1000, signal)).ok);
  const spec = c.events.find((e): e is Extract<AgentEvent, { type: 'chart' }> => e.type === 'chart')!.spec as { encoding: { x: Record<string, unknown> } };
  t.deepEqual(spec.encoding.x, { field: 'weekday', type: 'nominal', sort: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] });

  const d = ctx({ queries: { run: async () => ({ ...result([['2025-01-01', '3'], ['2025-02-01', '4']]), columns: [{ name: 'month', type: 'DATE' }, { name: 'n', type: 'BIGINT' }] }) } });
  const monthly = (JSON.parse((await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1' }), d.base, 1000, signal)).content) as { df_key: string }).df_key;
  t.true((await executeTool(DEFAULT_TOOLS, call('make_chart', { df_key: monthly, type: 'line', x: 'month', y: 'n' }), d.base, 1000, signal)).ok);
  t.deepEqual((d.events.find((e): e is Extract<AgentEvent, { type: 'chart' }> => e.type === 'chart')!.spec as { encoding: { x: Record<string, unknown> } }).encoding.x, { field: 'month', type: 'temporal' });
});

test('errors come back to the model as results with stable codes', async (t) => {
  const c = ctx({ queries: { run: async () => { throw new AppError('bad_request', 'QUERY_REFUSED', 'Only SELECT statements are allowed', { reason: 'not_select' }); } } });
  const refused = await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'DELETE FROM orders' }), c.base, 1000, signal);
  t.false(refused.ok);
  t.like(JSON.parse(refused.content), { error: { code: 'QUERY_REFUSED', data: { reason: 'not_select' } } });
  t.like(c.events.find((e) => e.type === 'sql'), { ok: false });
  t.is((await executeTool(DEFAULT_TOOLS, call('nope', {}), c.base, 1000, signal)).error?.code, 'UNKNOWN_TOOL');
  t.is((await executeTool(DEFAULT_TOOLS, call('run_sql', '{bad json'), c.base, 1000, signal)).error?.code, 'TOOL_ARGS_INVALID');
  t.is((await executeTool(DEFAULT_TOOLS, call('run_sql', { sql: 'SELECT 1' }), c.base, 1000, signal)).error?.code, 'TOOL_ARGS_INVALID');
  t.is((await executeTool(DEFAULT_TOOLS, call('make_chart', { df_key: 'df_x', type: 'bar', x: 'a', y: 'b' }), c.base, 1000, signal)).error?.code, 'DF_KEY_NOT_FOUND');
  t.is((await executeTool(DEFAULT_TOOLS, call('describe_table', { connection_id: 'demo_warehouse', table: 'nope' }), c.base, 1000, signal)).error?.code, 'TABLE_NOT_DOCUMENTED');
});

test('a tool that runs past its timeout returns TOOL_TIMEOUT and its signal is aborted', async (t) => {
  let aborted = false;
  const c = ctx({
    queries: {
      run: (req) =>
        new Promise((_, reject) => {
          req.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
    },
  });
  const out = await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1' }), c.base, 30, signal);
  t.is(out.error?.code, 'TOOL_TIMEOUT');
  t.true(aborted);
});

test('describe_table shows columns and relationships; search_knowledge records the commit and items', async (t) => {
  const c = ctx();
  const d = await executeTool(DEFAULT_TOOLS, call('describe_table', { connection_id: 'demo_warehouse', table: 'main.orders' }), c.base, 1000, signal);
  const body = JSON.parse(d.content) as { table: { columns: unknown[] }; relationships: { id: string }[] };
  t.is(body.table.columns.length, 6);
  t.deepEqual(body.relationships.map((r) => r.id).sort(), ['order_items_orders', 'orders_customers']);
  await executeTool(DEFAULT_TOOLS, call('search_knowledge', { query: 'revenue by country' }), c.base, 1000, signal);
  t.is(c.state.knowledgeCommit, 'memory');
  t.true(c.state.knowledgeItems.has('tables/demo_warehouse/main.orders.yaml'));
});

test('query_uploads lists the chat\'s files and queries them', async (t) => {
  const c = ctx();
  const list = await executeTool(DEFAULT_TOOLS, call('query_uploads', { list_only: true }), c.base, 1000, signal);
  t.like(JSON.parse(list.content), { files: [{ table: 'budget' }] });
  const q = await executeTool(DEFAULT_TOOLS, call('query_uploads', { sql: 'SELECT * FROM budget' }), c.base, 1000, signal);
  t.true(q.ok);
  t.true(c.events.some((e) => e.type === 'table'));
});

test('run_sql gives the columns that show a governed metric its format, from the tables the query read, and nothing to others', async (t) => {
  const docs = tableDocs().map((d) =>
    d.name === 'orders' ? { ...d, metrics: [{ name: 'revenue', description: 'Revenue', expression: 'SUM(total_amount)', format: 'USD' }, { name: 'order_count', description: 'Orders', expression: 'COUNT(*)' }] } : d,
  );
  const read = (columns: string[], tables: string[]): QueryResult => ({ columns: columns.map((name) => ({ name, type: 'DOUBLE' })), rows: [[1, 2, 3]], rowCount: 1, truncated: false, executionMs: 1, dialect: 'duckdb', tables });
  const tableEvent = (events: AgentEvent[]) => events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')!;

  const c = ctx({ knowledge: memoryKnowledge({ tables: docs, relationships: relationshipDocs() }), queries: { run: async () => read(['country', 'Revenue', 'order_count'], ['main.orders']) } });
  t.true((await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1' }), c.base, 1000, signal)).ok);
  // Matched by name whatever its case; a metric without a format and a plain column get none.
  t.deepEqual(tableEvent(c.events).formats, { Revenue: 'USD' });
  t.deepEqual([...c.state.dataframes.values()][0]!.formats, { Revenue: 'USD' });

  // The same column name over a table that defines no such metric is not guessed.
  const other = ctx({ knowledge: memoryKnowledge({ tables: docs, relationships: relationshipDocs() }), queries: { run: async () => read(['revenue'], ['main.customers']) } });
  t.true((await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1' }), other.base, 1000, signal)).ok);
  t.false('formats' in tableEvent(other.events));

  // Formats the caller names for computed columns are kept, for columns the result has; a governed metric's own wins.
  const asked = ctx({ knowledge: memoryKnowledge({ tables: docs, relationships: relationshipDocs() }), queries: { run: async () => read(['country', 'Revenue', 'share'], ['main.orders']) } });
  const formats = { share: 'percent', Revenue: 'EUR', gone: 'USD' };
  t.true((await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1', formats }), asked.base, 1000, signal)).ok);
  t.deepEqual(tableEvent(asked.events).formats, { share: 'percent', Revenue: 'USD' });
  const bad = await executeTool(DEFAULT_TOOLS, call('run_sql', { connection_id: 'demo_warehouse', sql: 'SELECT 1', formats: { share: '<b>' } }), asked.base, 1000, signal);
  t.false(bad.ok, 'a format is one of the known ones, never free text');
});

test('look_up_values runs one governed query as the caller and gives the matches to the model only', async (t) => {
  const asked: { sql: string; principal: Principal }[] = [];
  const found: QueryResult = { columns: ['table_schema', 'table_name', 'column_name', 'value'].map((name) => ({ name, type: 'VARCHAR' })), rows: [['main', 'customers', 'city', 'Munich']], rowCount: 1, truncated: false, executionMs: 1, dialect: 'duckdb' };
  const c = ctx({ queries: { run: async (req) => (asked.push({ sql: req.sql, principal: req.principal }), found) } });
  const args = { connection_id: 'demo_warehouse', columns: [{ schema: 'main', table: 'customers', column: 'city' }, { schema: 'main', table: 'products', column: 'name' }], phrases: ['munich', "o'brien", 'in munich'] };
  const out = await executeTool(DEFAULT_TOOLS, call('look_up_values', args), c.base, 1000, signal);
  t.true(out.ok);
  t.deepEqual(JSON.parse(out.content), { matches: [{ schema: 'main', table: 'customers', column: 'city', value: 'Munich' }] });
  t.is(asked.length, 1);
  t.is(asked[0]!.principal, principal);
  t.regex(asked[0]!.sql, /FROM main\.customers WHERE LOWER\(city\) IN \('munich', 'o''brien', 'in munich'\) GROUP BY city\nUNION ALL\n/);
  t.deepEqual(c.events.map((e) => e.type), ['sql'], 'no result table is shown');
  t.is(c.state.dataframes.size, 0);
});

test('look_up_values refuses names that are not plain identifiers and phrases with quotes, backslashes or semicolons', async (t) => {
  const c = ctx({ queries: { run: async () => t.fail('no query') as never } });
  const column = { schema: 'main', table: 'customers', column: 'city' };
  for (const args of [
    { connection_id: 'w', columns: [{ ...column, column: 'city; DROP TABLE x' }], phrases: ['munich'] },
    { connection_id: 'w', columns: [{ ...column, table: 'customers"--' }], phrases: ['munich'] },
    { connection_id: 'w', columns: [column], phrases: ["x\\' OR 1=1"] },
    { connection_id: 'w', columns: [column], phrases: ['munich"; SELECT 1'] },
    { connection_id: 'w', columns: Array.from({ length: 9 }, () => column), phrases: ['munich'] },
    { connection_id: 'w', columns: [column], phrases: [] },
  ]) {
    const out = await executeTool(DEFAULT_TOOLS, call('look_up_values', args), c.base, 1000, signal);
    t.false(out.ok, JSON.stringify(args));
    t.is(out.error?.code, 'TOOL_ARGS_INVALID');
  }
});
