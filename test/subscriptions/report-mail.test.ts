// A report mail and a chat message read as the web client's table does: figures with separators and
// right-aligned, dates at their grain, the read time in the subscription's time zone; the CSV keeps
// the raw values.
import test from 'ava';
import { checkAlert } from '../../src/subscriptions/alert.ts';
import type { ReportTile } from '../../src/subscriptions/ports.ts';
import { reportMail } from '../../src/subscriptions/report-mail.ts';
import { webhookBody } from '../../src/subscriptions/webhook-payload.ts';

const months = Array.from({ length: 12 }, (_, i) => [`2025-${String(i + 1).padStart(2, '0')}-01 00:00:00`, 12_345.5 + i, BigInt(1_200 + i), 2025]);
const tile: ReportTile = {
  title: 'Revenue by month',
  columns: [
    { name: 'month', type: 'TIMESTAMP' },
    { name: 'revenue', type: 'DOUBLE' },
    { name: 'orders', type: 'BIGINT' },
    { name: 'year', type: 'INTEGER' },
  ],
  rows: months,
  chart: { mark: 'bar' },
  read_at: '2026-01-16T08:00:03.120Z',
};
const mail = (pngs: (string | undefined)[]) =>
  reportMail({ to: 'ana@example.com', report: { title: 'Monday numbers', tiles: [tile] }, pngs, timeZone: 'Europe/Paris', unsubscribeUrl: 'https://s.example/u', oneClickUrl: 'https://s.example/o' });

test('the body shows figures with separators, months as months and the read time in the subscription\'s zone', (t) => {
  const { html, text } = mail([undefined]);
  t.regex(html!, /<td style="text-align:left;[^"]*">Jan 2025<\/td><td style="text-align:right;[^"]*">12,345.50<\/td><td style="text-align:right;[^"]*">1,200<\/td><td style="text-align:right;[^"]*">2025<\/td>/);
  t.true(html!.includes('Data read at 16 Jan 2026, 09:00 CET'), 'in Paris, not UTC and not ISO');
  t.false(html!.includes('00:00:00'));
  t.true(text.includes('Revenue by month\nData read at 16 Jan 2026, 09:00 CET\nmonth | revenue | orders | year\nJan 2025 | 12,345.50 | 1,200 | 2025'));
});

test('under a chart the body shows the first 10 rows and says the CSV has them all; the CSV keeps raw values', (t) => {
  const m = mail(['iVBORw0KGgo=']);
  t.is((m.html!.match(/<tr><td/g) ?? []).length, 10);
  t.true(m.html!.includes('10 of 12 rows shown; the attached CSV has them all.'));
  t.true(m.text.includes('(10 of 12 rows; the attached CSV has them all)'));
  const csv = Buffer.from(m.attachments!.find((a) => a.contentType === 'text/csv')!.content, 'base64').toString();
  t.true(csv.startsWith('month,revenue,orders,year\r\n2025-01-01 00:00:00,12345.5,1200,2025\r\n'));
  t.is((mail([undefined]).html!.match(/<tr><td/g) ?? []).length, 12, 'without a chart, up to 50 rows');
});

test('a tile that failed shows its error and no read time; a read time that is not ISO is shown as stored', (t) => {
  const failed = reportMail({ to: 'a@example.com', report: { title: 'R', tiles: [{ ...tile, rows: [], read_at: null, error: 'Permission denied for table orders' }] }, pngs: [], timeZone: 'UTC', unsubscribeUrl: 'u', oneClickUrl: 'o' });
  t.true(failed.html!.includes('Permission denied for table orders'));
  t.false(failed.html!.includes('Data read at'));
  const odd = reportMail({ to: 'a@example.com', report: { title: 'R', tiles: [{ ...tile, read_at: 'yesterday' }] }, pngs: [], timeZone: 'UTC', unsubscribeUrl: 'u', oneClickUrl: 'o' });
  t.true(odd.html!.includes('Data read at yesterday'));
});

test('a count past 2^53 is shown exactly, not rounded to a float', (t) => {
  const big = { ...tile, columns: [{ name: 'n', type: 'HUGEINT' }], rows: [[2n ** 60n + 1n]] };
  const m = reportMail({ to: 'a@example.com', report: { title: 'R', tiles: [big] }, pngs: [], timeZone: 'UTC', unsubscribeUrl: 'u', oneClickUrl: 'o' });
  t.true(m.html!.includes('>1152921504606846977</td>'));
});

test('Slack and Teams messages show the same cells, Teams without reading them as Markdown; JSON keeps the raw values', (t) => {
  const args = { subscriptionId: 's1', report: { title: 'Monday numbers', tiles: [tile] }, link: 'https://s.example/saved/q', slotAt: null };
  const slack = webhookBody('slack', args);
  t.true(slack.includes('Jan 2025 | 12,345.50 | 1,200 | 2025'));
  t.true(slack.includes('(10 of 12 rows)'));
  t.true(webhookBody('teams', args).includes('Jan 2025 | 12,345.50 | 1,200 | 2025'));
  // Teams reads a TextBlock as Markdown: titles and values go in TextRuns, which it shows as written.
  const hostile = { ...tile, title: 'Q1_2024_sales', columns: [{ name: 'note', type: 'VARCHAR' }], rows: [['[click](https://evil.example) **now**']] };
  const card = JSON.parse(webhookBody('teams', { ...args, report: { title: 'R_1_', tiles: [hostile] } })).attachments[0].content as { body: { type: string; inlines: { type: string; text: string }[] }[] };
  t.deepEqual([...new Set(card.body.map((b) => b.type))], ['RichTextBlock']);
  t.deepEqual(card.body.map((b) => b.inlines.map((i) => i.type)), [['TextRun'], ['TextRun'], ['TextRun']]);
  t.deepEqual(card.body.map((b) => b.inlines[0]!.text), ['R_1_', 'Q1_2024_sales', 'note\n[click](https://evil.example) **now**']);
  const json = JSON.parse(webhookBody('json', args)) as { tiles: { rows: unknown[][] }[] };
  t.deepEqual(json.tiles[0]!.rows[0], ['2025-01-01 00:00:00', 12345.5, 1200, 2025]);
});

test('an alert\'s line reads its numbers with separators', (t) => {
  const report = { title: 'R', tiles: [{ ...tile, columns: [{ name: 'orders', type: 'BIGINT' }], rows: [[812]] }] };
  t.is(checkAlert({ column: 'orders', op: '<', threshold: 1000 }, report).line, 'Alert: orders is 812 (< 1,000)');
});
