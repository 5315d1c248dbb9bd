// One tile: text, or a saved question run (as the viewer or a link's sharer) with the filter values,
// showing its chart or table, when its data was read, and its own error. Tiles run independently,
// so one slow or failing tile holds up nothing else.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ApiProblem } from '../api/problem.ts';
import { chartOver } from '../saved/chart-over.ts';
import { RunTable } from '../saved/run-table.tsx';
import type { FilterValue, RunTile, Tile, TileRun } from './types.ts';

const ChartView = lazy(() => import('../ask/chart-view.tsx').then((m) => ({ default: m.ChartView })));

interface Props {
  tile: Tile;
  run: RunTile;
  filters: FilterValue[];
  /** Changes to run again (refresh by hand or on the interval). */
  tick: number;
}

export function TileView({ tile, run, filters, tick }: Props) {
  // Tiles scroll inside their grid cell: focusable, so the keyboard scrolls them too.
  if (tile.saved_question_id === null)
    return (
      <div className="tile-text" tabIndex={0}>
        {tile.text}
      </div>
    );
  return <QuestionTile tile={tile} run={run} filters={filters} tick={tick} />;
}

function QuestionTile({ tile, run, filters, tick }: Props) {
  const [result, setResult] = useState<TileRun | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const key = JSON.stringify(filters);
  // A run the refresh asked for reads afresh; the first one may get rows another viewer read seconds ago.
  const lastTick = useRef(tick);
  useEffect(() => {
    const abort = new AbortController();
    const refresh = tick !== lastTick.current;
    lastTick.current = tick;
    setLoading(true);
    run(tile.id, JSON.parse(key) as FilterValue[], abort.signal, refresh).then(
      (r) => {
        setResult(r);
        setProblem(undefined);
        setLoading(false);
      },
      (err: unknown) => {
        if (abort.signal.aborted) return;
        setProblem(err instanceof ApiProblem ? err.message : 'The tile could not be run.');
        setLoading(false);
      },
    );
    return () => abort.abort();
  }, [tile.id, run, key, tick]);
  const title = tile.question?.title ?? 'A saved question you cannot open';
  return (
    <article className="tile" aria-label={title} aria-busy={loading} tabIndex={0}>
      <header>
        <strong>{title}</strong>
        <span className="spacer" />
        {loading ? <span className="muted">Running…</span> : result && <span className="muted tile-read-at">Data read at {new Date(result.read_at).toLocaleString()}</span>}
      </header>
      {problem ? (
        <div className="alert error" role="alert">
          {problem}
        </div>
      ) : (
        result &&
        (tile.question?.chart ? (
          <Suspense fallback={<p className="muted">Drawing the chart…</p>}>
            <ChartView spec={chartOver(tile.question.chart, result)} fill />
          </Suspense>
        ) : (
          <RunTable result={result} />
        ))
      )}
    </article>
  );
}
