// The offline model's question sets on the demo organization (fixtures knowledge, demo warehouse):
// the public suite fixtures/evaluations/offline-demo.yaml (paraphrases and the team's canonical
// questions, tagged by family, each with the SQL of its expected answer), and the team's follow-ups,
// which the runner cannot ask (it asks each question in a chat of its own) and which live here. No
// number is typed in: the expected rows come from the same warehouse. The clock stands on 2026-11-20
// (data ends 2026-10-31): "last month" is October 2026, "this month" has no data yet, 2027 is the future.
import { fileURLToPath } from 'node:url';
import { readSuite, type Suite } from './suite-run.ts';

export const DEMO_QUESTIONS_NOW = Date.UTC(2026, 10, 20, 12);

/** The demo suite as kept in the project. */
export const DEMO_SUITE_PATH = fileURLToPath(new URL('../../fixtures/evaluations/offline-demo.yaml', import.meta.url));

/** The body of POST /api/agentic_with_history, as these tests read it. */
export interface AgentAnswer {
  status: string;
  content: string;
  tables: { rows: unknown[][] }[];
  sql: { sql: string }[];
}

export type Expected =
  /** `says`: what the answer text must contain, from the expected rows (numbers in the units asked). */
  | { sql: string; says?: (rows: unknown[][]) => string }
  /** Outside the family: refused, saying what the model can answer. */
  | { refuse: true };

export interface DemoQuestion {
  question: string;
  /** The family (the first part of a suite question's id), or follow_up. */
  class: string;
  expected: Expected;
  chat?: string;
  /** The suite question's id. */
  id?: string;
}

const REVENUE_ORDERS = "status IN ('completed', 'shipped')";
const Y = (col: string, year: number) => `${col} >= DATE '${year}-01-01' AND ${col} < DATE '${year + 1}-01-01'`;
const LINE_REVENUE = 'SUM(i.quantity * i.unit_price * (1 - i.discount))';
const q = (question: string, cls: string, expected: Expected, chat: string): DemoQuestion => ({ question, class: cls, expected, chat });
const sql = (s: string): Expected => ({ sql: s });

/** Questions that share a `chat` are asked in order in one chat. */
export const DEMO_FOLLOW_UPS: DemoQuestion[] = [
  q('What was revenue in Germany in 2025?', 'follow_up', sql(`SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND c.country = 'Germany' AND ${Y('o.order_date', 2025)}`), 'a'),
  q('And in France?', 'follow_up', sql(`SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND c.country = 'France' AND ${Y('o.order_date', 2025)}`), 'a'),
  q('How many orders did we get in 2023?', 'follow_up', sql(`SELECT COUNT(*) FROM orders WHERE ${Y('order_date', 2023)}`), 'b'),
  q('What about 2024?', 'follow_up', sql(`SELECT COUNT(*) FROM orders WHERE ${Y('order_date', 2024)}`), 'b'),
  q('Revenue by channel in 2025', 'follow_up', sql(`SELECT channel, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1`), 'c'),
  q('and by country?', 'follow_up', sql(`SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1`), 'c'),
  q('How many units were ordered in 2024?', 'follow_up', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) WHERE ${Y('o.order_date', 2024)}`), 'd'),
  q('And for the Electronics category?', 'follow_up', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE p.category = 'Electronics' AND ${Y('o.order_date', 2024)}`), 'd'),
  q('Average order value in 2025', 'follow_up', sql(`SELECT AVG(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)}`), 'e'),
  q('and for corporate customers?', 'follow_up', sql(`SELECT AVG(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND c.segment = 'corporate' AND ${Y('o.order_date', 2025)}`), 'e'),
  q('Which 3 categories had the highest revenue in 2024?', 'follow_up', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2024)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`), 'f'),
  q('and in 2023?', 'follow_up', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2023)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`), 'f'),
  q('How many customers are in Japan?', 'follow_up', sql("SELECT COUNT(*) FROM customers WHERE country = 'Japan'"), 'g'),
  q('and in Brazil?', 'follow_up', sql("SELECT COUNT(*) FROM customers WHERE country = 'Brazil'"), 'g'),
  q('What about Canada?', 'follow_up', sql("SELECT COUNT(*) FROM customers WHERE country = 'Canada'"), 'g'),
  // Added after the first run, from probing the planner with questions of a second analyst.
  q('Revenue in 2025', 'follow_up', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)}`), 'h'),
  q('and the units?', 'follow_up', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) WHERE ${Y('o.order_date', 2025)}`), 'h'),
  q('And how many customers do we have?', 'follow_up', sql('SELECT COUNT(*) FROM customers'), 'h'),
  q('Revenue by month in 2025', 'follow_up', sql(`SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 1`), 'i'),
  q('and only on the web channel?', 'follow_up', sql(`SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND channel = 'web' AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 1`), 'i'),
  // "The month before" is the one before the earlier question's month, not the one before today.
  q('How many orders in March 2025?', 'follow_up', sql("SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-03-01' AND order_date < DATE '2025-04-01'"), 'j'),
  q('and the month before?', 'follow_up', sql("SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-02-01' AND order_date < DATE '2025-03-01'"), 'j'),
  q('and on weekends?', 'follow_up', sql("SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-02-01' AND order_date < DATE '2025-03-01' AND dayofweek(order_date) IN (0, 6)"), 'j'),
];

// Numbers as the answer text must print them, from the expected rows: scaled, as shares, in USD.
const n = (v: unknown) => Number(v);
const scaled = (factor: number) => (v: unknown) => (n(v) / factor).toLocaleString('en-US', { maximumFractionDigits: 2 });
const usd = (v: unknown) => n(v).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
/** A row's share, with the digits of the whole list: one (none when no share needs it), more while two shares read alike. */
const share = (rows: unknown[][], i: number) => {
  const all = rows.map((r) => n(r.at(-1)) / rows.reduce((s, x) => s + n(x.at(-1)), 0));
  const reads = (d: number) => new Set(all.map((v) => (v * 100).toFixed(d))).size === new Set(all).size;
  const digits = all.every((v) => Number.isInteger(Number((v * 100).toFixed(1)))) && reads(0) ? 0 : reads(1) ? 1 : 2;
  return all[i]!.toLocaleString('en-US', { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits });
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const month = (v: unknown) => `${MONTHS[Number(String(v).slice(5, 7)) - 1]} ${String(v).slice(0, 4)}`;
const quarter = (v: unknown) => `${String(v).slice(0, 4)} Q${Math.floor((Number(String(v).slice(5, 7)) - 1) / 3) + 1}`;
const first = (rows: unknown[][]) => rows[0]![0];
const firstValue = (rows: unknown[][]) => rows[0]!.at(-1);

/** What the text of a suite answer must contain beyond its numbers (units, scale, labels), by question id. */
export const DEMO_TEXT_CHECKS: Record<string, (rows: unknown[][]) => string> = {
  'units.revenue-in-2025-in-thousands': (r) => `Revenue in 2025, in thousands of USD: ${scaled(1e3)(first(r))}.`,
  'units.what-was-revenue-in-2025-in-millions-of-dollars': (r) => `Revenue in 2025, in millions of USD: ${scaled(1e6)(first(r))}.`,
  'units.total-revenue-in-millions': (r) => `Revenue, in millions of USD: ${scaled(1e6)(first(r))}.`,
  'units.what-is-our-revenue-in-us-dollars': (r) => `Revenue, in USD: ${usd(first(r))}.`,
  'units.revenue-by-country-in-thousands': (r) => `Revenue by country, in thousands of USD:\n- ${String(r[0]![0])}: ${scaled(1e3)(r[0]![1])}`,
  'units.revenue-by-channel-in-dollars': (r) => `Revenue by channel, in USD:\n- ${String(r[0]![0])}: ${usd(r[0]![1])}`,
  'units.how-many-orders-in-thousands': (r) => `Number of orders, in thousands: ${scaled(1e3)(first(r))}.`,
  'units.average-order-value-in-2025-in-dollars': (r) => `in USD: ${usd(first(r))}.`,
  'units.revenue-last-quarter-in-thousands-of-dollars': (r) => `Revenue last quarter, in thousands of USD: ${scaled(1e3)(first(r))}.`,
  'units.revenue-by-month-in-2025-in-thousands': (r) => `- ${month(r[0]![0])}: ${scaled(1e3)(r[0]![1])}`,
  'units.units-sold-by-category-in-thousands': (r) => `in thousands:\n- ${String(r[0]![0])}: ${scaled(1e3)(r[0]![1])}`,
  'units.revenue-by-channel-as-a-percentage': (r) => `Revenue by channel, as a share of the total:\n- ${String(r[0]![0])}: ${share(r, 0)}\n- ${String(r[1]![0])}: ${share(r, 1)}`,
  'units.number-of-customers-per-country-as-a-percentage': (r) => `as a share of the total:\n- ${String(r[0]![0])}: ${share(r, 0)}`,
  'units.revenue-by-product-category-as-a-share-of-the-total': (r) => `- ${String(r[0]![0])}: ${share(r, 0)}`,
  'units.units-sold-by-category-as-a-percentage': (r) => `- ${String(r[0]![0])}: ${share(r, 0)}`,
  'units.break-down-orders-by-status-as-a-percentage': (r) => `- ${String(r[0]![0])}: ${share(r, 0)}`,
  'units.revenue-by-chanel-in-milions': (r) => `in millions of USD:\n- ${String(r[0]![0])}: ${scaled(1e6)(r[0]![1])}`,
  'labels.revenue-by-quarter-in-2025': (r) => `- ${quarter(r[0]![0])}: ${usd(r[0]![1])}\n- ${quarter(r[1]![0])}: ${usd(r[1]![1])}`,
  'labels.monthly-revenue-in-2024': (r) => `- ${month(r[0]![0])}: ${usd(r[0]![1])}`,
  'labels.number-of-orders-per-quarter-in-2024': (r) => `- ${quarter(r[3]![0])}: `,
  'labels.which-segment-has-the-most-customers': (r) => `Segment with the most customers: ${String(first(r))} (${n(firstValue(r)).toLocaleString('en-US')}).`,
  'labels.which-channel-has-the-fewest-orders': (r) => `Channel with the fewest orders: ${String(first(r))} (`,
  'labels.which-category-had-the-highest-revenue-in-2025': (r) => `Category with the highest revenue in 2025: ${String(first(r))} (${usd(firstValue(r))}).`,
  'labels.what-is-the-highest-order-value': (r) => `: ${usd(first(r))}.`,
  'labels.what-is-the-lowest-order-value': (r) => `: ${usd(first(r))}.`,
  'labels.maximum-total-amount-of-orders-in-2025': (r) => `: ${usd(first(r))}.`,
  'ordinals.which-country-has-the-second-most-customers': (r) => `Country with the second most customers: ${String(first(r))} (`,
  'ordinals.which-channel-brought-the-second-highest-revenue': (r) => `Channel with the second highest revenue: ${String(first(r))} (${usd(firstValue(r))}).`,
};

/** What a suite question expects: no expected_sql means it must be refused. */
export function expectedOf(q: Suite['questions'][number]): Expected {
  if (!q.expected_sql) return { refuse: true };
  const says = DEMO_TEXT_CHECKS[q.id];
  return { sql: q.expected_sql, ...(says ? { says } : {}) };
}

/** Every demo question: the suite's, then the follow-ups. */
export function demoQuestions(): DemoQuestion[] {
  const suite = readSuite(DEMO_SUITE_PATH).questions.map((s) => ({ id: s.id, question: s.question, class: s.id.split('.')[0]!, expected: expectedOf(s) }));
  return [...suite, ...DEMO_FOLLOW_UPS];
}
