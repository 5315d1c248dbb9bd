// A report as a webhook body: Slack's incoming-webhook message (blocks with mrkdwn), Teams' (an
// Adaptive Card in a message), with values as a mail shows them, or plain JSON with every row, raw, for
// anything else.
import type { Report, ReportTile } from './ports.ts';
import { numberText, shownRows } from './report-cells.ts';
import type { Channel } from './schemas.ts';

/** Rows shown per table in a chat message; JSON carries them all. */
const CHAT_ROWS = 10;

/** Slack reads &, < and > as markup (links, mentions): escaped, a value cannot ping a channel. */
const slackText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function tileLines(t: ReportTile): string {
  if (t.error) return t.error;
  const rows = shownRows(t, CHAT_ROWS).rows.map((r) => r.join(' | '));
  const more = t.rows.length > CHAT_ROWS ? [`(${CHAT_ROWS} of ${numberText(t.rows.length)} rows)`] : [];
  return [t.columns.map((c) => c.name).join(' | '), ...rows, ...more].join('\n');
}

function slack(r: Report, link: string, alertLine: string | undefined) {
  return {
    text: slackText(r.title),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: r.title.slice(0, 150) } },
      ...(alertLine ? [{ type: 'section', text: { type: 'mrkdwn', text: `*${slackText(alertLine)}*` } }] : []),
      ...r.tiles.map((t) => ({ type: 'section', text: { type: 'mrkdwn', text: `*${slackText(t.title)}*\n\`\`\`${slackText(tileLines(t)).slice(0, 2800)}\`\`\`` } })),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${link}|Open in Sextant>` }] },
    ],
  };
}

/**
 * Text as Teams shows it verbatim: a TextBlock reads its text as Markdown, so a warehouse value
 * `[click](https://…)` became a link in the channel and `Q1_2024_sales` a title in italics. A
 * RichTextBlock's TextRun reads none (Adaptive Cards 1.2).
 */
const teamsText = (text: string, style: Record<string, string>) => ({ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text, ...style }] });

function teams(r: Report, link: string, alertLine: string | undefined) {
  const body = [
    teamsText(r.title, { weight: 'Bolder', size: 'Medium' }),
    ...(alertLine ? [teamsText(alertLine, { weight: 'Bolder' })] : []),
    ...r.tiles.flatMap((t) => [teamsText(t.title, { weight: 'Bolder' }), teamsText(tileLines(t), { fontType: 'Monospace' })]),
  ];
  const card = { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body, actions: [{ type: 'Action.OpenUrl', title: 'Open in Sextant', url: link }] };
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] };
}

/** A count is a number to a JSON reader; only one past 2^53 stays exact as a string. */
const bigintValue = (v: bigint) => (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString());

/** The body a webhook channel receives for a report. */
export function webhookBody(format: Extract<Channel, { type: 'webhook' }>['format'], a: { subscriptionId: string; report: Report; link: string; slotAt: number | null; alertLine?: string | undefined }): string {
  if (format === 'slack') return JSON.stringify(slack(a.report, a.link, a.alertLine));
  if (format === 'teams') return JSON.stringify(teams(a.report, a.link, a.alertLine));
  return JSON.stringify({
    subscription_id: a.subscriptionId,
    title: a.report.title,
    slot_at: a.slotAt === null ? null : new Date(a.slotAt).toISOString(),
    alert: a.alertLine ?? null,
    tiles: a.report.tiles.map((t) => ({ title: t.title, columns: t.columns, rows: t.rows, read_at: t.read_at, error: t.error ?? null })),
  }, (_k, v: unknown) => (typeof v === 'bigint' ? bigintValue(v) : v));
}
