// The sizes a chart's Vega-Lite spec may ask for. Anyone who saves a chart writes its spec, and others
// draw it: on the server for a mail or an MCP client (charts/chart-png.ts), in a colleague's browser on a
// dashboard. `height: 5000000` had vega lay out an axis of 125,000 ticks, and the server's rasteriser
// then took every byte of memory. The sizes a spec names, at any depth (concatenated and layered
// views, `config.view`, steps, tick counts), are capped before vega sees it; data is left alone.

/** The largest a size, step or tick count named in a spec may be. */
const CAPS: Record<string, number> = { width: 2000, height: 2000, continuousWidth: 2000, continuousHeight: 2000, discreteWidth: 2000, discreteHeight: 2000, step: 100, tickCount: 100 };
/** Where a spec holds data (rows may have a `width` of their own) rather than layout. */
const NOT_LAYOUT = new Set(['data', 'datasets', 'usermeta']);

/** The spec with every size it names capped. */
export function cappedChartSizes<T>(spec: T): T {
  if (Array.isArray(spec)) return spec.map(cappedChartSizes) as T;
  if (typeof spec !== 'object' || spec === null) return spec;
  const capped = Object.entries(spec).map(([k, v]) => [k, NOT_LAYOUT.has(k) ? v : typeof v === 'number' && CAPS[k] !== undefined ? Math.min(v, CAPS[k]) : cappedChartSizes(v)]);
  return Object.fromEntries(capped) as T;
}
