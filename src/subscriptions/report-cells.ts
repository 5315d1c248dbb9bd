// A report's values as its reader sees them in a mail or a chat message: formatted as the web client's
// table shows them (src/shared/format-cell.ts), and when the data was read, in the subscription's time
// zone. A mail has no browser to ask for a language, so one is fixed. The CSV attachments and the JSON
// webhook keep the raw values.
import { columnFormat, formatCell } from '../shared/format-cell.ts';
import type { ReportTile } from './ports.ts';

const LOCALE = 'en-GB';

/** The first `limit` rows of a tile as text, each column formatted from all its values, and which columns hold figures. */
export function shownRows(t: ReportTile, limit: number): { rows: string[][]; figures: boolean[] } {
  const formats = t.columns.map((c, i) => columnFormat(c.name, t.rows.map((r) => r[i])));
  return {
    rows: t.rows.slice(0, limit).map((r) => r.map((v, i) => formatCell(v, formats[i]!, LOCALE))),
    figures: formats.map((f) => f.kind === 'number' || f.kind === 'identifier'),
  };
}

/** "30 Nov 2026, 09:00 CET": an ISO instant in an IANA time zone (as stored when it is not ISO). */
export function readAtText(readAt: string, timeZone: string): string {
  const at = new Date(readAt);
  if (Number.isNaN(at.getTime())) return readAt;
  return at.toLocaleString(LOCALE, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone, timeZoneName: 'short' });
}

/** A number in the alert's line: "1,000", as the tables show it. */
export const numberText = (n: number) => n.toLocaleString(LOCALE, { maximumFractionDigits: 20 });
