// The LLM path on the demo organization: a scripted OpenAI-compatible model that writes its SQL only
// from what the context shows it. The metric's definition in the context leads it to the metric's
// filter; the query still passes through the SQL guard, which refuses what is not a SELECT.
import test from 'ava';
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { SYSTEM_PROMPT } from '../../src/agent/loop/build-context.ts';
import { openAiProvider } from '../../src/agent/providers/openai-provider.ts';
import { findUserByEmail } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../helpers/llm-servers.ts';

type Msg = { role: string; content?: string | null };

/** The SQL a model following the system prompt writes for "revenue in 2025", read off the metric line of the context. */
function sqlFromContext(system: string): string | undefined {
  const m = /- table demo_warehouse:main\.orders[\s\S]*?metric revenue = (.+?)(?: WHERE (.+?))?; periods on (\w+)/.exec(system);
  if (!m) return undefined;
  const [, expression, filter, date] = m;
  return `SELECT ${expression} AS revenue FROM main.orders WHERE ${filter ? `(${filter}) AND ` : ''}${date} >= DATE '2025-01-01' AND ${date} < DATE '2026-01-01'`;
}

const script = (body: Record<string, unknown>): ScriptedReply => {
  const messages = body['messages'] as Msg[];
  const question = String(messages.filter((x) => x.role === 'user').at(-1)?.content);
  const tools = messages.filter((x) => x.role === 'tool');
  if (tools.length > 0) return { text: `Done: ${String(tools.at(-1)!.content).slice(0, 300)}` };
  if (/delete/i.test(question)) return { toolCalls: [{ id: 'c1', name: 'run_sql', args: { connection_id: 'demo_warehouse', sql: "DELETE FROM main.orders WHERE status = 'cancelled'" } }] };
  const sql = sqlFromContext(String(messages[0]!.content));
  return sql ? { toolCalls: [{ id: 'c1', name: 'run_sql', args: { connection_id: 'demo_warehouse', sql } }] } : { text: 'No metric in my context.' };
};

let t0: TestApp;
let llm: ScriptedServer;
let token: string;
test.before(async () => {
  llm = await startScriptedServer('openai', script);
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '2000' }, { llmProvider: openAiProvider({ model: 'scripted', apiKey: 'k', baseUrl: llm.url, maxRetries: 0 }) });
  token = t0.token((await findUserByEmail(t0.app.services.executor, 'analyst@demo.sextant.local'))!, 'api', DEMO_ORG_ID);
});
test.after.always(async () => {
  await t0.stop();
  await llm.close();
});

const ask = async (chatId: string, message: string) =>
  (await (
    await t0.fetch('/api/agentic_with_history', { method: 'POST', headers: { 'API-KEY': token, 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: chatId, message }) })
  ).json()) as { status: string; content: string; sql: { sql: string; ok: boolean }[]; tables: { rows: unknown[][] }[] };

test.serial('the context carries the metrics and the coverage, and the prompt makes the model use them', async (t) => {
  await ask('llm-1', 'What was revenue in 2025?');
  const system = String((llm.requests[0]!.body['messages'] as Msg[])[0]!.content);
  t.true(system.startsWith(SYSTEM_PROMPT));
  t.regex(system, /Governed metrics are the organization's definitions/);
  t.regex(system, /metric revenue = SUM\(total_amount\) WHERE status IN \('completed', 'shipped'\); periods on order_date; shown as USD/);
  t.regex(system, /metric units = SUM\(quantity\); periods on orders\.order_date/);
  t.regex(system, /data coverage: order_date from 2022-01-05 to 2026-10-31/);
  t.regex(system, /\(tables\/demo_warehouse\/main\.orders\.yaml\)/);
});

test.serial('the metric leads the model to its filter, and the governed query gives the metric’s number', async (t) => {
  const answer = await ask('llm-2', 'What was revenue in 2025?');
  t.is(answer.status, 'completed', answer.content);
  t.is(answer.sql.length, 1);
  t.true(answer.sql[0]!.ok);
  t.regex(answer.sql[0]!.sql, /status IN \('completed', 'shipped'\)/);
  const instance = await DuckDBInstance.create(join(t0.config.dataDir, 'warehouse', DEMO_ORG_ID, 'demo.duckdb'), { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const expected = ((await conn.runAndReadAll("SELECT SUM(total_amount) FROM orders WHERE status IN ('completed', 'shipped') AND year(order_date) = 2025")).getRowsJson() as unknown[][])[0]?.[0];
  conn.closeSync();
  instance.closeSync();
  t.is(Number(answer.tables[0]!.rows[0]![0]), Number(expected));
});

test.serial('what the model writes still passes the SQL guard: a DELETE is refused and nothing is deleted', async (t) => {
  const answer = await ask('llm-3', 'Please delete the cancelled orders');
  t.deepEqual(answer.sql.map((s) => s.ok), [false]);
  const toolMessage = (llm.requests.at(-1)!.body['messages'] as Msg[]).filter((m) => m.role === 'tool').at(-1)!;
  t.regex(String(toolMessage.content), /QUERY_REFUSED/);
  const instance = await DuckDBInstance.create(join(t0.config.dataDir, 'warehouse', DEMO_ORG_ID, 'demo.duckdb'), { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const cancelled = ((await conn.runAndReadAll("SELECT count(*) FROM orders WHERE status = 'cancelled'")).getRowsJson() as unknown[][])[0]?.[0];
  conn.closeSync();
  instance.closeSync();
  t.true(Number(cancelled) > 0, 'the cancelled orders are still there');
});
