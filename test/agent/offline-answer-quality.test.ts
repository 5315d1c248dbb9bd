// The offline model on the demo organization, one test per class of failure the issue names. Every
// expected number is computed here by DuckDB from the same warehouse file; the clock stands where
// the demo data has ended (2026-11-20), as it does for a new user today.
import test from 'ava';
import { sqliteExecutor } from '../../src/store/index.ts';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { join } from 'node:path';
import { OFFLINE_UNSUPPORTED } from '../../src/agent/index.ts';
import { findUserByEmail } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { DEMO_QUESTIONS_NOW, type AgentAnswer as Answer } from '../helpers/demo-questions.ts';

let t0: TestApp;
let conn: DuckDBConnection;
let analyst: string;
let modeler: string;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '1500' });
  t0.clock.set(DEMO_QUESTIONS_NOW);
  const db = t0.app.services.store.sqlite!;
  analyst = t0.session((await findUserByEmail(sqliteExecutor(db), 'analyst@demo.sextant.local'))!, DEMO_ORG_ID);
  modeler = t0.session((await findUserByEmail(sqliteExecutor(db), 'modeler@demo.sextant.local'))!, DEMO_ORG_ID);
  const instance = await DuckDBInstance.create(join(t0.config.dataDir, 'warehouse', DEMO_ORG_ID, 'demo.duckdb'), { access_mode: 'READ_ONLY' });
  conn = await instance.connect();
});
test.after.always(() => t0.stop());

let chats = 0;
async function ask(message: string, { chatId = `quality-${++chats}`, token = analyst, env }: { chatId?: string; token?: string; env?: string } = {}): Promise<Answer> {
  const res = await call(t0, 'POST', '/api/agentic_with_history', { token, ...(env ? { env } : {}), body: { chat_id: chatId, message } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body as Answer;
}
const value = async (sql: string) => Number(((await conn.runAndReadAll(sql)).getRowsJson() as unknown[][])[0]![0]);
const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
const REVENUE_2025 = "SELECT SUM(total_amount) FROM orders WHERE status IN ('completed', 'shipped') AND year(order_date) = 2025";

test.serial('definitions: revenue follows the governed metric, says so, and a period without data says so instead of 0', async (t) => {
  const a = await ask('What was revenue in 2025?');
  const expected = await value(REVENUE_2025);
  t.is(Number(a.tables[0]!.rows[0]![0]), expected);
  t.true(expected < (await value('SELECT SUM(total_amount) FROM orders WHERE year(order_date) = 2025')), 'the filter matters');
  t.true(a.content.startsWith(`Revenue in 2025: ${expected.toLocaleString('en-US', { style: 'currency', currency: 'USD' })}.`), a.content);
  t.regex(a.content, /Metric revenue: Revenue in US dollars, counting completed and shipped orders only/);
  t.regex(a.content, /Knowledge used: tables\/demo_warehouse\/main\.orders\.yaml\./);

  const none = await ask('What was revenue this month?');
  t.deepEqual(none.sql, []);
  t.regex(none.content, /^No data for that period; the data covers 2022-01-05 to 2026-10-31\. \(Revenue this month: 2026-11-01 to 2026-11-30\.\)/);
  const partly = await ask('What is the revenue this year?');
  t.regex(partly.content, /The data covers 2022-01-05 to 2026-10-31, so this period is only partly covered\./);
});

test.serial('outside the family: causes, the future, changes to data and unmapped words are refused, saying what can be asked', async (t) => {
  const cases: [string, RegExp][] = [
    ['Why did revenue drop in March 2025?', /it asks why something happened/],
    ['Forecast revenue for next quarter', /it asks about the future/],
    ['Will we have more than 10,000 orders in 2027?', /it asks about the future/],
    ['Revenue in Q1 2027', /it asks about the future/],
    ['What is our profit margin by category?', /I do not know what "profit", "margin" means here/],
    ['Delete all cancelled orders', /it asks to change data, and Sextant only reads it/],
    ['Please drop the customers table', /it asks to change data/],
  ];
  for (const [question, reason] of cases) {
    const a = await ask(question);
    t.deepEqual(a.sql, [], question);
    t.regex(a.content, reason, question);
    t.regex(a.content, /The governed metrics I know are .*revenue/, question);
    t.true(a.content.includes(OFFLINE_UNSUPPORTED), question);
  }
});

test.serial('grouping and measures: the right groups, units summed, averages never rounded in the data', async (t) => {
  const top = await ask('Which 3 categories had the highest revenue in 2025?');
  const expected = await rows(`SELECT p.category, SUM(i.quantity * i.unit_price * (1 - i.discount)) FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id)
    WHERE o.status IN ('completed', 'shipped') AND year(o.order_date) = 2025 GROUP BY 1 ORDER BY 2 DESC LIMIT 3`);
  t.deepEqual(top.tables[0]!.rows.map((r) => r[0]), expected.map((r) => r[0]));

  const units = await ask('How many units were ordered in 2025?');
  const sum = await value('SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) WHERE year(o.order_date) = 2025');
  t.is(Number(units.tables[0]!.rows[0]![0]), sum);
  t.not(sum, await value('SELECT COUNT(*) FROM order_items i JOIN orders o USING (order_id) WHERE year(o.order_date) = 2025'));

  const aov = await ask('What is the average order value?');
  t.notRegex(aov.sql[0]!.sql, /ROUND/i);
  const exact = await value("SELECT AVG(total_amount) FROM orders WHERE status IN ('completed', 'shipped')");
  t.is(Number(aov.tables[0]!.rows[0]![0]), exact);
  t.false(Number.isInteger(exact * 100), 'the average has more than two decimals');
  t.true(aov.content.includes(exact.toLocaleString('en-US', { style: 'currency', currency: 'USD' })), aov.content);
});

test.serial('"average daily revenue" divides the period\'s total by its days, not the average order grouped by day', async (t) => {
  const daily = await ask('What was the average daily revenue in March 2025?');
  const march = await value("SELECT SUM(total_amount) FROM orders WHERE status IN ('completed', 'shipped') AND order_date >= DATE '2025-03-01' AND order_date < DATE '2025-04-01'");
  t.is(daily.tables[0]!.rows.length, 1, 'one number, not a row per day');
  t.true(Math.abs(Number(daily.tables[0]!.rows[0]![0]) - march / 31) < 1e-9);
  t.regex(daily.content, /^Average daily revenue in March 2025: /);
  t.true(daily.content.includes('divided by its 31 days (days without any counted as well)'), daily.content);
  const orders = await ask('average monthly orders in 2025');
  t.true(Math.abs(Number(orders.tables[0]!.rows[0]![0]) - (await value('SELECT COUNT(*) FROM orders WHERE year(order_date) = 2025')) / 12) < 1e-9);
  // Running to today (the demo's clock: 20 November 2026): the days so far.
  const running = await ask('average daily revenue this month');
  t.regex(running.content, /from 2026-11-01 to 2026-11-20 divided by its 20 days/);
  for (const q of ['average daily revenue', 'average daily revenue by month in 2025', 'average monthly revenue over the last 30 days', 'average daily discount in 2025']) {
    const refused = await ask(q);
    t.deepEqual(refused.sql, [], q);
    t.true(refused.content.includes(OFFLINE_UNSUPPORTED), q);
  }
});

test.serial('"what percentage of orders were cancelled" is the part over the whole, in a group, a follow-up, never 0 % by a metric\'s own filter', async (t) => {
  const ratio = async (sql: string) => value(sql);
  const cancelled = await ask('What percentage of orders were cancelled in 2025?', { chatId: 'share-1' });
  t.is(Number(cancelled.tables[0]!.rows[0]![0]), await ratio("SELECT COUNT(*) FILTER (WHERE status = 'cancelled') / COUNT(*) FROM orders WHERE year(order_date) = 2025"));
  t.regex(cancelled.content, /^Share of orders where status is cancelled in 2025: \d+\.\d%\./);
  const returned = await ask('and returned?', { chatId: 'share-1' });
  t.is(Number(returned.tables[0]!.rows[0]![0]), await ratio("SELECT COUNT(*) FILTER (WHERE status = 'returned') / COUNT(*) FROM orders WHERE year(order_date) = 2025"));
  // Values after the measure name the part, values before it narrow the whole.
  const web = await ask('What share of revenue came from web orders in Germany?');
  t.is(Number(web.tables[0]!.rows[0]![0]), await ratio(`SELECT SUM(o.total_amount) FILTER (WHERE o.channel = 'web' AND c.country = 'Germany') / SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id)
    WHERE o.status IN ('completed', 'shipped')`));
  const ofWeb = await ask('What percentage of web orders were cancelled in 2025?');
  t.is(Number(ofWeb.tables[0]!.rows[0]![0]), await ratio("SELECT COUNT(*) FILTER (WHERE status = 'cancelled') / COUNT(*) FROM orders WHERE channel = 'web' AND year(order_date) = 2025"));
  t.regex(ofWeb.content, /^Share of orders where status is cancelled among those where channel is web in 2025: /);
  const byChannel = await ask('percentage of orders cancelled by channel');
  t.is(byChannel.tables[0]!.rows.length, 3);
  for (const q of ['What share of revenue was cancelled?', 'What share of average order value came from web?', 'What percentage of customers ordered on the web?']) {
    const refused = await ask(q);
    t.deepEqual(refused.sql, [], q);
    t.true(refused.content.includes(OFFLINE_UNSUPPORTED), q);
  }
});

test.serial('"revenue growth in 2025" compares the year with the one before and states the change; a running period is not compared', async (t) => {
  const growth = await ask('What was our revenue growth in 2025?');
  const [before, after] = [await value(`${REVENUE_2025.replace('2025', '2024')}`), await value(REVENUE_2025)];
  t.deepEqual(growth.tables[0]!.rows.map((r) => Number(r[1])), [before, after]);
  const pct = ((after - before) / before).toLocaleString('en-US', { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  t.true(growth.content.includes(`(${pct}).`), growth.content);
  t.regex(growth.content, /^Revenue by year in 2025 and the year before:/);
  const named = await ask('how much did revenue increase in Q2 2025 vs Q1 2025');
  t.regex(named.content, /\nChange: [+-]\$[\d,.]+ \([+-][\d.]+%\)\./);
  for (const q of ['revenue growth this month vs last month', 'How did revenue grow compared to last year?', 'revenue growth by channel and status in 2025']) {
    const refused = await ask(q);
    t.deepEqual(refused.sql, [], q);
    t.true(refused.content.includes(OFFLINE_UNSUPPORTED), q);
  }
  // The groups ranked by their growth: worked out in SQL, as the change of each is written by hand.
  const leader = await ask('which channel had the highest revenue growth in 2025');
  const [expected] = await rows("SELECT channel, SUM(total_amount) FILTER (WHERE year(order_date) = 2025) - SUM(total_amount) FILTER (WHERE year(order_date) = 2024) AS d FROM orders WHERE status IN ('completed', 'shipped') GROUP BY 1 ORDER BY d DESC LIMIT 1");
  t.is(leader.tables[0]!.rows.length, 1);
  t.is(leader.tables[0]!.rows[0]![0], expected![0]);
  t.regex(leader.content, /^Top 1: Revenue by channel in 2025 and the year before, ranked by the change from the year before:\n- \w+, 2025: \$[\d,.]+ \(\+\$[\d,.]+, \+[\d.]+% from the year before\)\n/);
});

test.serial('"how did revenue change compared to 2024" compares the year named with the one after it', async (t) => {
  const [before, after] = [await value(`${REVENUE_2025.replace('2025', '2024')}`), await value(REVENUE_2025)];
  for (const q of ['How did revenue change compared to 2024?', 'revenue growth from 2024', 'revenue change vs 2024']) {
    const change = await ask(q);
    t.deepEqual(change.tables[0]?.rows.map((r) => Number(r[1])), [before, after], q);
    t.regex(change.content, /^Revenue by year in 2024 and the year after:\n[\s\S]*\nChange: \+\$[\d,.]+ \(\+[\d.]+%\)\./, q);
  }
});

test.serial('"revenue growth by channel in 2025" states each channel\'s two years and the change between them', async (t) => {
  const growth = await ask('revenue growth by channel in 2025');
  const expected = await rows("SELECT channel, SUM(total_amount) FILTER (WHERE year(order_date) = 2024), SUM(total_amount) FILTER (WHERE year(order_date) = 2025) FROM orders WHERE status IN ('completed', 'shipped') GROUP BY 1 ORDER BY 1");
  const money = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  const lines = expected.map(([channel, before, after]) => {
    const [a, b] = [Number(before), Number(after)];
    const pct = ((b - a) / a).toLocaleString('en-US', { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
    return `- ${String(channel)}: ${money(a)} in 2024, ${money(b)} in 2025. Change: ${b >= a ? '+' : '-'}${money(Math.abs(b - a))} (${pct}).`;
  });
  t.true(growth.content.startsWith(`Revenue by channel and year in 2025 and the year before:\n${lines.join('\n')}\n`), growth.content);
  t.is(growth.tables[0]!.rows.length, expected.length * 2, 'the table keeps a row per channel and year');
});

test.serial('follow-ups: "and in France?" is read with the chat’s previous question, and alone it is refused', async (t) => {
  await ask('What was revenue in Germany in 2025?', { chatId: 'follow-1' });
  const a = await ask('And in France?', { chatId: 'follow-1' });
  const france = await value(`SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.status IN ('completed', 'shipped') AND c.country = 'France' AND year(o.order_date) = 2025`);
  t.is(Number(a.tables[0]!.rows[0]![0]), france);
  t.regex(a.content, /^Revenue where country is France in 2025: /);
  const alone = await ask('And in France?', { chatId: 'follow-2' });
  t.deepEqual(alone.sql, []);
  t.true(alone.content.includes(OFFLINE_UNSUPPORTED));
});

test.serial('vocabulary: "sales" is revenue, a period applies to a date in a joined table, earliest and latest dates', async (t) => {
  t.is(Number((await ask('Total sales in 2025')).tables[0]!.rows[0]![0]), await value(REVENUE_2025));
  const discount = await ask('What is the average discount of order items in 2025?');
  t.is(Number(discount.tables[0]!.rows[0]![0]), await value('SELECT AVG(i.discount) FROM order_items i JOIN orders o USING (order_id) WHERE year(o.order_date) = 2025'));
  t.regex(discount.sql[0]!.sql, /JOIN main\.orders/);
  const earliest = await ask('When was the earliest order?');
  t.is(String(earliest.tables[0]!.rows[0]![0]).slice(0, 10), String((await rows('SELECT MIN(order_date)::VARCHAR FROM orders'))[0]![0]));
  const latest = await ask('When did the first customer sign up?');
  t.is(String(latest.tables[0]!.rows[0]![0]).slice(0, 10), String((await rows('SELECT MIN(signup_date)::VARCHAR FROM customers'))[0]![0]));
});

test.serial('a metric changed in an environment governs answers there, and in production once merged', async (t) => {
  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Completed revenue', color: '#00aa00' } })).body.id as string;
  const path = '/api/knowledge/tables/demo_warehouse%2Fmain.orders';
  const data = (await call(t0, 'GET', path, { token: modeler })).body.data as { metrics: Record<string, unknown>[] };
  const metrics = data.metrics.map((m) => (m['name'] === 'revenue' ? { ...m, filter: "status = 'completed'" } : m));
  t.is((await call(t0, 'PUT', path, { token: modeler, env, body: { ...data, metrics } })).status, 200);
  const completed = await value("SELECT SUM(total_amount) FROM orders WHERE status = 'completed' AND year(order_date) = 2025");
  const inEnv = await ask('What was revenue in 2025?', { token: modeler, env });
  t.is(Number(inEnv.tables[0]!.rows[0]![0]), completed);
  t.regex(inEnv.content, /where status = 'completed'/);
  t.is(Number((await ask('What was revenue in 2025?', { token: modeler })).tables[0]!.rows[0]![0]), await value(REVENUE_2025), 'production until merged');
  const admin = t0.session((await findUserByEmail(t0.app.services.executor, 'admin@demo.sextant.local'))!, DEMO_ORG_ID);
  t.is((await call(t0, 'POST', `/api/environments/${env}/merge`, { token: admin, body: { confirm: true } })).status, 200);
  t.is(Number((await ask('What was revenue in 2025?')).tables[0]!.rows[0]![0]), completed);
});
