// A report as mail: an HTML body with the numbers (every value escaped), each chart as an inline PNG,
// each table as a CSV attachment, a plain-text alternative, and an unsubscribe link in both bodies
// and in the List-Unsubscribe headers (one click from the mail client, RFC 8058).
import escapeHtml from 'escape-html';
import { toCsv } from '../shared/csv.ts';
import type { MailAttachment, MailMessage } from '../mail/index.ts';
import type { Report, ReportTile } from './ports.ts';
import { numberText, readAtText, shownRows } from './report-cells.ts';

/** Rows shown in the body of a mail (fewer under the chart that draws them); the CSV attachment has them all. */
const bodyRows = (png: string | undefined) => (png ? 10 : 50);

/** A tile's chart drawn once per run, as base64 PNG (undefined when it has none or it did not draw). */
export type TilePngs = (string | undefined)[];

const fileName = (title: string, i: number) => `${i + 1}-${title.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 60) || 'table'}.csv`;

function tableHtml(t: ReportTile, limit: number): string {
  const { rows, figures } = shownRows(t, limit);
  // Figures right-aligned, as they are read (and as the web client's table shows them).
  const align = figures.map((f) => (f ? 'right' : 'left'));
  const head = t.columns.map((c, i) => `<th style="text-align:${align[i]};border-bottom:1px solid #ccc;padding:4px 8px">${escapeHtml(c.name)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((v, i) => `<td style="text-align:${align[i]};padding:4px 8px">${escapeHtml(v)}</td>`).join('')}</tr>`)
    .join('');
  const more = t.rows.length > limit ? `<p style="color:#666">${limit} of ${numberText(t.rows.length)} rows shown; the attached CSV has them all.</p>` : '';
  return `<table style="border-collapse:collapse;font-size:13px"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${more}`;
}

const readAtLine = (t: ReportTile, timeZone: string) => (t.read_at ? `Data read at ${readAtText(t.read_at, timeZone)}` : '');

function tileHtml(t: ReportTile, i: number, png: string | undefined, timeZone: string): string {
  const title = `<h2 style="font-size:16px">${escapeHtml(t.title)}</h2>`;
  if (t.error) return `${title}<p style="color:#a00">${escapeHtml(t.error)}</p>`;
  const chart = png ? `<img src="cid:chart-${i}@sextant" alt="${escapeHtml(`Chart: ${t.title}`)}" width="560" style="max-width:100%">` : '';
  const read = readAtLine(t, timeZone);
  return `${title}${read ? `<p style="color:#666">${escapeHtml(read)}</p>` : ''}${chart}${tableHtml(t, bodyRows(png))}`;
}

function tileText(t: ReportTile, png: string | undefined, timeZone: string): string {
  if (t.error) return `${t.title}\n${t.error}`;
  const limit = bodyRows(png);
  const lines = shownRows(t, limit).rows.map((r) => r.join(' | '));
  const more = t.rows.length > limit ? [`(${limit} of ${numberText(t.rows.length)} rows; the attached CSV has them all)`] : [];
  return [t.title, readAtLine(t, timeZone), t.columns.map((c) => c.name).join(' | '), ...lines, ...more].filter(Boolean).join('\n');
}

/** The mail of a report to one address, with its unsubscribe links; times in the subscription's `timeZone`. */
export function reportMail(a: { to: string; report: Report; pngs: TilePngs; timeZone: string; unsubscribeUrl: string; oneClickUrl: string; alertLine?: string | undefined }): MailMessage {
  const { report } = a;
  const alert = a.alertLine ? `<p><strong>${escapeHtml(a.alertLine)}</strong></p>` : '';
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#222"><h1 style="font-size:20px">${escapeHtml(report.title)}</h1>${alert}
${report.tiles.map((t, i) => tileHtml(t, i, a.pngs[i], a.timeZone)).join('\n')}
<p style="color:#666;font-size:12px;margin-top:24px">You receive this report from Sextant. <a href="${escapeHtml(a.unsubscribeUrl)}">Unsubscribe</a></p></body></html>`;
  const text = [report.title, a.alertLine ?? '', ...report.tiles.map((t, i) => tileText(t, a.pngs[i], a.timeZone)), `Unsubscribe: ${a.unsubscribeUrl}`].filter(Boolean).join('\n\n');
  const attachments: MailAttachment[] = [
    ...report.tiles.flatMap((t, i) => (a.pngs[i] ? [{ filename: `chart-${i + 1}.png`, contentType: 'image/png', content: a.pngs[i]!, cid: `chart-${i}@sextant` }] : [])),
    ...report.tiles.flatMap((t, i) => (t.error ? [] : [{ filename: fileName(t.title, i), contentType: 'text/csv', content: Buffer.from(toCsv(t.columns.map((c) => c.name), t.rows)).toString('base64') }])),
  ];
  const headers = { 'List-Unsubscribe': `<${a.oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  return { to: a.to, subject: subjectOf(report.title), text, html, attachments, headers };
}

/** A subject line: the title without line breaks (nodemailer encodes the rest). */
export const subjectOf = (title: string) => title.replace(/[\r\n]+/g, ' ').slice(0, 200);
