// MCP tools answered by the real agent on the demo organization: a question over MCP, then its result.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findUserByEmail } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '2000' });
});
test.after.always(() => t0.stop());

async function connect(email: string) {
  const user = (await findUserByEmail(t0.app.services.executor, email))!;
  const c = new Client({ name: 'e2e', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': t0.token(user, 'mcp', DEMO_ORG_ID) } } }));
  return c;
}
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;

test('ask_question starts a run and get_result returns the answer with its table as CSV', async (t) => {
  const c = await connect('analyst@demo.sextant.local');
  t.teardown(() => c.close());
  const asked = await call(c, 'ask_question', { question: 'total revenue by country' });
  t.falsy(asked.isError, JSON.stringify(asked.content));
  const chatId = (asked.structuredContent as { chat_id: string }).chat_id;
  const waited = await call(c, 'wait', { seconds: 10, chat_id: chatId });
  t.true((waited.structuredContent as { ready: boolean }).ready);
  const result = await call(c, 'get_result', { chat_id: chatId });
  const out = result.structuredContent as { status: string; answer: string; tables: { name: string; csv: string; row_count: number; sql?: string }[]; queries: { sql: string; ok: boolean; connection_id: string }[] };
  t.is(out.status, 'completed');
  t.regex(out.answer, /Germany/);
  t.regex(out.tables[0]!.csv, /^country,/);
  // Named by the title the agent gave its query, never by the internal df_key.
  t.notRegex(out.tables[0]!.name, /^df_/);
  t.regex(out.tables[0]!.name, /revenue/i);
  t.is(out.tables[0]!.row_count, 8);
  // The SQL of each query, to quote: the governed revenue metric with its filter.
  t.regex(out.tables[0]!.sql ?? '', /^SELECT .*SUM\(t0\.total_amount\)[\s\S]*status IN \('completed', 'shipped'\)/);
  t.deepEqual(out.queries.map((q) => [q.connection_id, q.sql, q.ok]), [['demo_warehouse', out.tables[0]!.sql, true]]);
  t.regex(out.answer, /Metric revenue: /);
});

test('another user of the same organization cannot read that result', async (t) => {
  const analyst = await connect('analyst@demo.sextant.local');
  const modeler = await connect('modeler@demo.sextant.local');
  t.teardown(async () => {
    await analyst.close();
    await modeler.close();
  });
  const chatId = ((await call(analyst, 'ask_question', { question: 'how many customers are there?' })).structuredContent as { chat_id: string }).chat_id;
  const peek = await call(modeler, 'get_result', { chat_id: chatId });
  t.is((peek.structuredContent as { status: string }).status, 'not_found');
});
