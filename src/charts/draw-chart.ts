// A chart as a PNG, drawn from the same Vega-Lite spec the web client draws: vega-lite compiles it,
// vega renders SVG headlessly (no canvas package), resvg rasterises the SVG. This runs in a drawing
// worker (chart-worker.ts), never on the gateway's event loop, and loads the three libraries there with
// the first chart. Vega runs with its expression interpreter (no eval, as in the browser) and without a
// loader that could fetch: a spec naming a URL for its data draws nothing rather than reach the network.
import type { Resvg as ResvgClass } from '@resvg/resvg-js';
import { cappedChartSizes } from '../shared/chart-size.ts';

interface Libraries {
  compile: (spec: never) => { spec: unknown };
  View: new (runtime: unknown, options: Record<string, unknown>) => { toSVG(): Promise<string>; finalize(): void };
  parse: (spec: unknown, config?: unknown, options?: Record<string, unknown>) => unknown;
  interpreter: unknown;
  loader: () => unknown;
  Resvg: typeof ResvgClass;
}

let libraries: Promise<Libraries> | undefined;

async function load(): Promise<Libraries> {
  const [vl, vega, interp, resvg] = await Promise.all([import('vega-lite'), import('vega'), import('vega-interpreter'), import('@resvg/resvg-js')]);
  const refuse = () => Promise.reject(new Error('charts drawn on the server read no URL'));
  return {
    compile: vl.compile as never,
    View: vega.View as never,
    parse: vega.parse as never,
    interpreter: interp.expressionInterpreter,
    loader: () => ({ ...vega.loader(), load: refuse, sanitize: refuse, http: refuse, file: refuse }),
    Resvg: resvg.Resvg,
  };
}

/** What a drawing process (chart-process.ts) sends once, before any chart: its libraries are loaded. */
export const READY = 'ready';

/** vega-lite, vega and resvg, loaded once per process (a drawing process loads them as it starts). */
export const loadLibraries = (): Promise<Libraries> => (libraries ??= load());

/** A chart to draw: the spec, and the rows that replace its data (a saved question's fresh run). */
export interface ChartInput {
  spec: Record<string, unknown>;
  rows?: Record<string, unknown>[] | undefined;
  /** Output width in pixels (default 640). */
  width?: number;
}

/**
 * How tall a PNG may be, as a multiple of its width. The sizes a spec names are capped before vega lays
 * it out (shared/chart-size.ts); the drawing, concatenated views and padding included, is then zoomed to
 * fit a PNG at most `width` wide and this many times that tall: `width: 1, height: 100000` drew for 19 s
 * before, and `width: 5, height: 5000000` took every byte of the machine's memory in the rasteriser.
 */
const MAX_ASPECT = 4;

/** The zoom that fits an SVG of `w` x `h` into `width` x `width * MAX_ASPECT` (and fills the width when it can). */
function zoomToFit(w: number, h: number, width: number): number {
  const zoom = Math.min(width / w, (width * MAX_ASPECT) / h);
  if (!Number.isFinite(zoom) || zoom <= 0) throw new Error('The chart has no size to draw');
  return zoom;
}

/** The PNG of a Vega-Lite chart, at most `width` wide and four times that tall; rejects when the spec does not draw. */
export async function drawChart({ spec, rows, width = 640 }: ChartInput): Promise<Buffer> {
  const lib = await loadLibraries();
  const full = { width: 560, height: 280, ...cappedChartSizes(spec), ...(rows ? { data: { values: rows } } : {}), background: 'white' } as Record<string, unknown>;
  // A container width means nothing off the page.
  if (full['width'] === 'container') full['width'] = 560;
  const runtime = lib.parse(lib.compile(full as never).spec, undefined, { ast: true });
  const view = new lib.View(runtime, { renderer: 'none', expr: lib.interpreter, loader: lib.loader() });
  try {
    const svg = await view.toSVG();
    const font = { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' };
    // Parsed once at its own size to learn it (nothing is drawn), then drawn at a zoom that fits.
    const own = new lib.Resvg(svg, { fitTo: { mode: 'original' }, font });
    return new lib.Resvg(svg, { fitTo: { mode: 'zoom', value: zoomToFit(own.width, own.height, width) }, font }).render().asPng();
  } finally {
    view.finalize();
  }
}
