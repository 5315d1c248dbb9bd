// The demo organization's example dashboard: four saved questions of the demo warehouse (revenue by
// month, by sales channel and by country, the best-selling products) and a note, published to the
// organization by the demo admin, so that the first `npm start` shows what a dashboard is. Each item
// has a fixed id and is written only when missing: a start after a crash halfway writes the rest, and
// of two replicas seeding at once the second finds the first one's rows (its own insert refused).
import { findUserByEmail } from '../../auth/index.ts';
import { DEMO_CONNECTION_ID } from '../../data/index.ts';
import { findDashboard, insertDashboard, type StoredTile } from '../../dashboards/index.ts';
import { findQuestion, insertQuestion, type ChartSpec } from '../../saved/index.ts';
import type { Services } from '../services.ts';

type SeedServices = Pick<Services, 'executor' | 'clock' | 'log'>;

export const DEMO_DASHBOARD_ID = 'db_demo_sales_overview';

// Revenue as the demo knowledge's governed metric counts it: completed and shipped orders.
const REVENUE = "SUM(o.total_amount) FILTER (WHERE o.status IN ('completed', 'shipped'))";

const bars = (category: string, value: string, sort: 'x' | '-x'): ChartSpec => ({
  mark: 'bar',
  encoding: { y: { field: category, type: 'nominal', sort }, x: { field: value, type: 'quantitative', title: 'Revenue (USD)' } },
});

const QUESTIONS: { id: string; title: string; description: string; sql: string; chart: ChartSpec | null }[] = [
  {
    id: 'sq_demo_monthly_revenue',
    title: 'Monthly revenue',
    description: 'Revenue of completed and shipped orders, by month of the order.',
    sql: `SELECT date_trunc('month', o.order_date) AS month, ${REVENUE} AS revenue FROM orders o GROUP BY 1 ORDER BY 1`,
    chart: { mark: 'line', encoding: { x: { field: 'month', type: 'temporal', title: 'Month' }, y: { field: 'revenue', type: 'quantitative', title: 'Revenue (USD)' } } },
  },
  {
    id: 'sq_demo_revenue_by_channel',
    title: 'Revenue by sales channel',
    description: 'Revenue of completed and shipped orders, by the channel the order came through.',
    sql: `SELECT o.channel, ${REVENUE} AS revenue FROM orders o GROUP BY 1 ORDER BY 2 DESC`,
    chart: bars('channel', 'revenue', '-x'),
  },
  {
    id: 'sq_demo_revenue_by_country',
    title: 'Revenue by country',
    description: "Revenue of completed and shipped orders, by the customer's country.",
    sql: `SELECT c.country, ${REVENUE} AS revenue FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY 1 ORDER BY 2 DESC`,
    chart: bars('country', 'revenue', '-x'),
  },
  {
    id: 'sq_demo_top_products',
    title: 'Top 10 products by units sold',
    description: 'Units ordered on every order line, whatever the order status.',
    sql: 'SELECT p.name AS product, p.category, SUM(i.quantity) AS units FROM order_items i JOIN products p ON p.product_id = i.product_id GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 10',
    chart: null,
  },
];

const TILES: StoredTile[] = [
  { id: 'monthly', saved_question_id: 'sq_demo_monthly_revenue', text: null, x: 0, y: 0, w: 8, h: 4 },
  { id: 'channel', saved_question_id: 'sq_demo_revenue_by_channel', text: null, x: 8, y: 0, w: 4, h: 4 },
  { id: 'country', saved_question_id: 'sq_demo_revenue_by_country', text: null, x: 0, y: 4, w: 6, h: 4 },
  { id: 'products', saved_question_id: 'sq_demo_top_products', text: null, x: 6, y: 4, w: 6, h: 4 },
  {
    id: 'note',
    saved_question_id: null,
    text: 'An example dashboard of the demo warehouse. Every tile runs with the permissions and row filters of whoever opens it; Edit arranges tiles and adds filters, Subscribe sends it on a schedule.',
    x: 0,
    y: 8,
    w: 12,
    h: 2,
  },
];

/** Writes `insert` unless `exists`; an insert refused because another writer got there first is fine. */
async function once(exists: () => Promise<unknown>, insert: () => Promise<void>): Promise<boolean> {
  if (await exists()) return false;
  try {
    await insert();
    return true;
  } catch (err) {
    if (await exists()) return false;
    throw err;
  }
}

/** Seeds the example dashboard and its questions in the demo organization `orgId`, owned by the admin `adminEmail`. */
export async function seedDemoDashboard(s: SeedServices, orgId: string, adminEmail: string): Promise<void> {
  const admin = await findUserByEmail(s.executor, adminEmail);
  if (!admin) return;
  const at = s.clock.now();
  for (const [i, q] of QUESTIONS.entries()) {
    const fields = { title: q.title, description: q.description, visibility: 'organization' as const, connection_id: DEMO_CONNECTION_ID, sql: q.sql, chart: q.chart, knowledge_commit: null };
    // A millisecond apart, the first the newest: the Saved page (newest first) lists them in the dashboard's order.
    await once(() => findQuestion(s.executor, orgId, q.id), () => insertQuestion(s.executor, { id: q.id, orgId, ownerId: admin.id, at: at - i, fields, source: null }));
  }
  const fields = { title: 'Sales overview', description: 'Revenue over time, by channel and by country, and the best-selling products.', visibility: 'organization' as const, filters: [] };
  if (await once(() => findDashboard(s.executor, orgId, DEMO_DASHBOARD_ID), () => insertDashboard(s.executor, { id: DEMO_DASHBOARD_ID, orgId, ownerId: admin.id, at, fields, tiles: TILES }))) {
    s.log.info({ org_id: orgId }, 'seeded the demo dashboard');
  }
}
