// A Vega-Lite chart. vega-embed (the largest part of the app) loads only when a chart is shown, and
// runs with Vega's expression interpreter, so the page's CSP needs no eval.
import { useEffect, useRef, useState } from 'react';
import { cappedChartSizes } from '../../../src/shared/chart-size.ts';

/** `fill`: the chart takes the height of its box too (a dashboard tile), not only its width. */
export function ChartView({ spec, fill = false }: { spec: Record<string, unknown>; fill?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const title = typeof spec['title'] === 'string' ? spec['title'] : 'Chart of the result';
  useEffect(() => {
    let finalize: (() => void) | undefined;
    let live = true;
    void (async () => {
      try {
        const [{ default: embed }, { expressionInterpreter }] = await Promise.all([import('vega-embed'), import('vega-interpreter')]);
        if (!live || !box.current) return;
        const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
        const size = fill ? { width: 'container', height: 'container', autosize: { type: 'fit', contains: 'padding' } } : { width: 'container' };
        // A spec is written by whoever saved the chart: its sizes are capped before vega lays it out.
        const result = await embed(box.current, { ...cappedChartSizes(spec), ...size, description: title } as never, {
          ast: true,
          expr: expressionInterpreter,
          renderer: 'svg',
          actions: { export: true, source: false, compiled: false, editor: false },
          ...(dark ? { theme: 'dark' as const } : {}),
        });
        finalize = () => result.finalize();
        // The library's menu button has only an icon: give it a name.
        box.current.querySelector('summary')?.setAttribute('aria-label', 'Chart actions: save as SVG or PNG');
      } catch (err) {
        console.error(err);
        if (live) setFailed(true);
      }
    })();
    return () => {
      live = false;
      finalize?.();
    };
  }, [spec, title, fill]);
  return (
    <figure className={fill ? 'chart chart-fill' : 'chart'} aria-label={title}>
      {failed ? <p className="muted">The chart could not be drawn; the table has the same data.</p> : <div ref={box} data-testid="chart" />}
    </figure>
  );
}
