// The offline model's value lookup through the gateway: "revenue in Germany", where the knowledge
// documents a country column without listing its values, looks the word up in the data with one
// governed query. The lookup runs under the asker's row security like the answer: a value the
// asker's row filter hides is not found, and the question is refused, not answered for all rows.
import test from 'ava';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const org = 'lookorg';
const ordersDoc = {
  connection: 'wh',
  schema: 'main',
  name: 'orders',
  description: 'One row per order.',
  columns: [
    { name: 'order_id', type: 'INTEGER', description: 'Identifier of the order.' },
    { name: 'customer_id', type: 'INTEGER', description: 'Customer who placed the order.' },
    { name: 'country', type: 'VARCHAR', description: 'Country the order was placed in.' },
    { name: 'total_amount', type: 'DECIMAL(12,2)', description: 'Amount of the order.' },
    { name: 'order_date', type: 'DATE', description: 'Day the order was placed.' },
  ],
  metrics: [{ name: 'revenue', description: 'Sum of order amounts.', expression: 'SUM(total_amount)', time_column: 'order_date' }],
  // Analysts see French orders only; admins see every order.
  row_filters: [{ filter: "country = 'France'", exempt_roles: ['admin'] }],
};

const customersDoc = {
  connection: 'wh',
  schema: 'main',
  name: 'customers',
  description: 'One row per customer.',
  columns: [
    { name: 'customer_id', type: 'INTEGER', description: 'Identifier of the customer.' },
    { name: 'name', type: 'VARCHAR', description: 'Name of the customer.' },
  ],
};

let t0: TestApp;
let admin: string;
let analyst: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t0.org(org);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  analyst = t0.session(t0.user({ orgId: org, role: 'user' }));
  const conn = await call('/api/connections', admin, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } });
  if (conn.status !== 201) throw new Error(await conn.text());
  for (const [path, body] of [
    ['/api/knowledge/tables', ordersDoc],
    ['/api/knowledge/tables', customersDoc],
    ['/api/knowledge/relationships', { id: 'orders_customers', description: 'The customer who placed the order.', kind: 'many_to_one', from: { connection: 'wh', schema: 'main', table: 'orders', column: 'customer_id' }, to: { connection: 'wh', schema: 'main', table: 'customers', column: 'customer_id' } }],
  ] as const) {
    const res = await call(path, admin, body);
    if (res.status !== 201) throw new Error(await res.text());
  }
});
test.after.always(() => t0.stop());

function call(path: string, token: string, body: unknown) {
  return t0.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

interface Answer {
  status: string;
  content: string;
  tables: { rows: unknown[][] }[];
  sql: { sql: string; ok: boolean }[];
}

async function ask(token: string, question: string): Promise<Answer> {
  const res = await call('/api/agentic', token, { chat_id: crypto.randomUUID(), messages: [{ role: 'user', content: question }] });
  return (await res.json()) as Answer;
}

test('a value the knowledge does not list is found in the data, said so, and filters the answer', async (t) => {
  const a = await ask(admin, 'Revenue in Germany');
  t.is(a.status, 'completed', a.content);
  t.regex(a.content, /^Reading 'germany' as the country 'Germany', found in the data\.\nRevenue where country is Germany: 40\.75\./);
  t.is(a.sql.length, 2, 'the lookup, then the answer');
  t.regex(a.sql[0]!.sql, /LOWER\(country\) IN \('germany'/);
  t.regex(a.sql[1]!.sql, /country = 'Germany'/);
  t.deepEqual(a.tables.length, 1, 'the lookup shows no table of its own');
});

test('the lookup runs under the asker\'s row filter: a value it hides is not found, and the question is refused', async (t) => {
  const a = await ask(analyst, 'Revenue in Germany');
  t.regex(a.content, /I do not know what "germany" means here/);
  t.deepEqual(a.tables, []);
  // The lookup ran, filtered: the analyst's own country is found.
  t.regex((await ask(analyst, 'Revenue in France')).content, /Revenue where country is France: 25\./);
});

test('a name with an apostrophe is looked up as text; one with a backslash or a quote mark is not looked up at all', async (t) => {
  const quoted = await ask(admin, "Revenue in O'Brien");
  t.regex(quoted.content, /I do not know what "o'brien" means here/);
  t.true(quoted.sql.every((s) => s.ok), JSON.stringify(quoted.sql));
  t.regex(quoted.sql[0]!.sql, /'o''brien'/);
  const hostile = await ask(admin, "Revenue in x\\' OR 1=1");
  t.false(hostile.sql.some((s) => s.sql.includes('\\')), JSON.stringify(hostile.sql));
  t.deepEqual(hostile.tables, []);
});

test('words that name no thing are not looked up: a refusal of "new" or "never" queries nothing', async (t) => {
  for (const question of ['How many new orders?', 'Which orders were never shipped?']) {
    const a = await ask(admin, question);
    t.deepEqual(a.sql, [], question);
  }
});

test('a follow-up of a question whose value was looked up looks it up again and keeps it', async (t) => {
  const chatId = crypto.randomUUID();
  const turn = async (message: string) => (await (await call('/api/agentic_with_history', admin, { chat_id: chatId, message })).json()) as Answer;
  await turn('Revenue in Germany');
  const next = await turn('and by month?');
  t.regex(next.content, /^Reading 'germany' as the country 'Germany', found in the data\.\nRevenue by month where country is Germany:\n- Jan 2024: 10\.50\n- Mar 2024: 30\.25\n/);
});

test('a value of a joined table\'s bare "name" column is read, and titled, as that table\'s', async (t) => {
  const a = await ask(admin, 'How many orders did Ann place?');
  t.regex(a.content, /^Reading 'ann' as the customer name 'Ann', found in the data\.\nNumber of orders where customer name is Ann: 1\./);
});
