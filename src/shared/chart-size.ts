// The sizes a chart's Vega-Lite spec may ask for. Anyone who saves a chart writes its spec, and others
// draw it: on the server for a mail or an MCP client (charts/chart-png.ts), in a colleague's browser on a
// dashboard. `height: 5000000` had vega lay out an axis of 125,000 ticks, and the server's rasteriser
// then took every byte of memory. The sizes a spec names, at any depth (concatenated and layered
// views, `config.view`, a discrete axis's step, tick counts, bin counts), are capped before vega sees
// it, and so are the sequences it generates and the points its density, quantile and regression
// transforms compute; data is left alone. Not every cost has a size to cap (a bin's step is the data's
// to judge), so the server also draws within a time and memory budget (charts/chart-png.ts).

/**
 * The largest a size, tick count, bin count, density's steps (Vega's default 200; 100,000,000 took the
 * server's memory) or regression's polynomial order (its cost grows as the cube) named in a spec may be.
 */
const CAPS: Record<string, number> = {
  ...{ width: 2000, height: 2000, continuousWidth: 2000, continuousHeight: 2000, discreteWidth: 2000, discreteHeight: 2000 },
  ...{ tickCount: 100, maxbins: 1000, steps: 1000, minsteps: 1000, maxsteps: 1000, order: 20 },
};
/** The smallest step between a quantile transform's probabilities (Vega's default 0.01; 1e-8 took the server's memory). */
const MIN_QUANTILE_STEP = 0.001;
/** The largest band a discrete axis may give each value (`width: {step}`, `config.view.step`); a bin's step is data's, not layout's. */
const MAX_STEP = 100;
/** Keys whose object may hold a layout `step`. */
const STEP_HOLDERS = new Set(['width', 'height', 'discreteWidth', 'discreteHeight', 'view']);
/** Where a spec holds data (rows may have a `width` of their own) rather than layout. */
const NOT_LAYOUT = new Set(['data', 'datasets', 'usermeta']);

/** The most values a generated sequence (`data: {sequence}`, impute's `keyvals`) may hold: one of 1,000,000 drew for 22 s on the server. */
const MAX_SEQUENCE = 10_000;
/** Keys whose object is a sequence generator: `{start, stop, step}`. */
const SEQUENCES = new Set(['sequence', 'keyvals']);

/** A sequence generator holding at most MAX_SEQUENCE values (its start and step kept). */
function cappedSequence(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const { start, stop, step = 1 } = v as { start?: unknown; stop?: unknown; step?: unknown };
  if (typeof start !== 'number' || typeof stop !== 'number' || typeof step !== 'number') return v;
  const count = (stop - start) / step;
  return Number.isFinite(count) && count <= MAX_SEQUENCE ? v : { ...v, stop: start + MAX_SEQUENCE * (Number.isFinite(step) && step !== 0 ? step : 1) };
}

/** The spec with every size it names capped, and every sequence it generates. */
export function cappedChartSizes<T>(spec: T): T {
  if (Array.isArray(spec)) return spec.map(cappedChartSizes) as T;
  if (typeof spec !== 'object' || spec === null) return spec;
  const capped = Object.entries(spec).map(([k, v]) => {
    if (SEQUENCES.has(k)) return [k, cappedSequence(v)];
    if (k === 'step' && 'quantile' in spec && typeof v === 'number') return [k, Math.max(v, MIN_QUANTILE_STEP)];
    if (STEP_HOLDERS.has(k) && typeof v === 'object' && v !== null && typeof (v as { step?: unknown }).step === 'number') {
      return [k, cappedChartSizes({ ...v, step: Math.min((v as { step: number }).step, MAX_STEP) })];
    }
    // Data is left alone but for the sequences it generates.
    if (k === 'data') return [k, typeof v === 'object' && v !== null && 'sequence' in v ? { ...v, sequence: cappedSequence(v.sequence) } : v];
    return [k, NOT_LAYOUT.has(k) ? v : typeof v === 'number' && CAPS[k] !== undefined ? Math.min(v, CAPS[k]) : cappedChartSizes(v)];
  });
  return Object.fromEntries(capped) as T;
}
