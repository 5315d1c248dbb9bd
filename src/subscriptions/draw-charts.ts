// The charts of a report drawn once per run (every recipient gets the same images), from each tile's
// Vega-Lite spec with the fresh rows as its data. A chart that does not draw leaves its table alone.
// An "Automatic" date axis is settled at the period of those rows, as the web client draws it
// (monthly rows get month-wide bars, not one-pixel ones on a daily axis).
import { chartPng } from '../charts/chart-png.ts';
import { settleDates } from '../shared/chart-spec.ts';
import type { Logger } from '../log.ts';
import type { Report } from './ports.ts';

/** Base64 PNG per tile, undefined where there is no chart or it did not draw. */
export async function drawCharts(log: Logger, report: Report): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = [];
  for (const t of report.tiles) {
    if (!t.chart || t.error) {
      out.push(undefined);
      continue;
    }
    const rows = t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.name, typeof r[i] === 'bigint' ? Number(r[i]) : r[i]])));
    try {
      out.push((await chartPng({ spec: settleDates(t.chart, rows), rows })).toString('base64'));
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'a report chart did not draw; its table is sent alone');
      out.push(undefined);
    }
  }
  return out;
}
