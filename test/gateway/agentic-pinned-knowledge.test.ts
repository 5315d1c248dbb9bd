// Governance reads the knowledge at the commit an answer is pinned to: a row filter changed by a
// commit that lands while the run is under way does not apply to that run's queries.
import test from 'ava';
import type { LlmProvider, LlmRequest, LlmStreamEvent } from '../../src/agent/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const org = 'pinorg';
const tableId = encodeURIComponent('wh/main.orders');
const ordersDoc = (country: string) => ({
  connection: 'wh',
  schema: 'main',
  name: 'orders',
  description: 'Orders',
  columns: [{ name: 'order_id', type: 'INTEGER' }, { name: 'country', type: 'VARCHAR' }],
  row_filters: [{ filter: `country = '${country}'` }],
});

/**
 * A model that, on its first turn of each question, waits for `beforeQuery` (the test commits there)
 * and then calls run_sql; on the next turn it answers.
 */
function pausedModel(beforeQuery: () => Promise<void>): LlmProvider {
  return {
    name: 'scripted',
    model: 'scripted-1',
    async *stream(req: LlmRequest): AsyncIterable<LlmStreamEvent> {
      const answered = req.messages.some((m) => m.role === 'tool');
      if (!answered) {
        await beforeQuery();
        const args = JSON.stringify({ connection_id: 'wh', sql: 'SELECT DISTINCT country FROM orders ORDER BY 1' });
        yield { type: 'tool_call_end', id: 'call-1', name: 'run_sql', arguments: args };
      } else yield { type: 'text_delta', text: 'Done.' };
      yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } };
      yield { type: 'finish', reason: answered ? 'stop' : 'tool_calls' };
    },
  };
}

let t0: TestApp;
let admin: string;
let analyst: string;
let beforeQuery: () => Promise<void> = async () => {};

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { llmProvider: pausedModel(() => beforeQuery()) });
  t0.org(org);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  analyst = t0.session(t0.user({ orgId: org, role: 'user' }));
  const conn = await call('POST', '/api/connections', admin, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } });
  if (conn.status !== 201) throw new Error(await conn.text());
  const doc = await call('POST', '/api/knowledge/tables', admin, ordersDoc('France'));
  if (doc.status !== 201) throw new Error(await doc.text());
});
test.after.always(() => t0.stop());

function call(method: string, path: string, token: string, body?: unknown) {
  return t0.fetch(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function ask(chatId: string): Promise<{ status: string; tables: { rows: unknown[][] }[]; sql: { ok: boolean }[] }> {
  const res = await call('POST', '/api/agentic', analyst, { chat_id: chatId, messages: [{ role: 'user', content: 'Which countries have orders?' }] });
  return (await res.json()) as { status: string; tables: { rows: unknown[][] }[]; sql: { ok: boolean }[] };
}

test.serial('a row filter changed by a commit during the run does not reach that run: its queries apply the filter of the pinned commit', async (t) => {
  beforeQuery = async () => {
    beforeQuery = async () => {};
    // The run has read the knowledge (its context) and is pinned; now the filter changes on main.
    const changed = await call('PUT', `/api/knowledge/tables/${tableId}`, admin, ordersDoc('Germany'));
    if (changed.status !== 200) throw new Error(await changed.text());
  };
  const during = await ask('pin-1');
  t.is(during.status, 'completed');
  t.deepEqual(during.sql.map((q) => q.ok), [true]);
  t.deepEqual(during.tables[0]!.rows, [['France']]);
  // The next run reads the new head: the change itself took effect.
  const after = await ask('pin-2');
  t.deepEqual(after.tables[0]!.rows, [['Germany']]);
});
