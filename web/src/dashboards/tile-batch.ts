// The tiles a page starts together (on opening, a filter change, a refresh) as one request: the
// whole-dashboard run streams each tile's result as a JSON line as it finishes, and each tile's own
// promise settles with its line, so tiles still show as they arrive and a tile's error stays in it.
// A tile started alone (one tile, or a retry) keeps the single-tile route.
import { rawFetch } from '../api/client.ts';
import { networkProblem, problemOf } from '../api/problem.ts';
import type { FilterValue, RunTile, TileRun } from './types.ts';

interface Waiting {
  tileId: string;
  signal: AbortSignal;
  resolve: (r: TileRun) => void;
  reject: (err: unknown) => void;
}

interface Batch {
  key: string;
  filters: FilterValue[];
  refresh: boolean;
  waiting: Waiting[];
}

type TileLine = TileRun & { status: number; error?: unknown };

/** The request stops once every tile waiting on it has been abandoned (the page left, filters changed). */
function abandonedTogether(waiting: Waiting[]): AbortController {
  const all = new AbortController();
  let left = waiting.length;
  for (const w of waiting)
    w.signal.addEventListener('abort', () => {
      w.reject(new DOMException('Aborted', 'AbortError'));
      if (--left === 0) all.abort();
    }, { once: true });
  return all;
}

/** Settles each waiting tile from the lines of `res`; tiles without a line fail. */
async function settleFrom(res: Response, waiting: Waiting[]): Promise<void> {
  const byId = new Map(waiting.map((w) => [w.tileId, w]));
  const settle = (line: string) => {
    if (!line.trim()) return;
    const { status, error, ...run } = JSON.parse(line) as TileLine;
    const w = byId.get(run.tile_id);
    byId.delete(run.tile_id);
    if (status === 200) w?.resolve(run);
    else w?.reject(problemOf(status, error));
  };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const lines = (buffered + value).split('\n');
    buffered = lines.pop()!;
    lines.forEach(settle);
  }
  settle(buffered);
  for (const w of byId.values()) w.reject(problemOf(500, { detail: 'The tile could not be run.' }));
}

async function runBatch(path: string, b: Batch): Promise<void> {
  const abort = abandonedTogether(b.waiting);
  try {
    const res = await rawFetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filters: b.filters, refresh: b.refresh }), signal: abort.signal });
    if (!res.ok) throw problemOf(res.status, await res.json().catch(() => undefined), res.headers.get('Retry-After'));
    await settleFrom(res, b.waiting);
  } catch (err) {
    const problem = err instanceof DOMException && err.name === 'AbortError' ? err : err instanceof Error && 'status' in err ? err : networkProblem();
    for (const w of b.waiting) w.reject(problem);
  }
}

/**
 * A RunTile gathering the tiles started in one render (same filters, same refresh) into one request
 * to `path` (the dashboard's or the link's run route); one tile alone goes through `single`.
 */
export function batchedRun(path: string, single: RunTile): RunTile {
  let open: Batch | undefined;
  return (tileId, filters, signal, refresh) => {
    const key = JSON.stringify([filters, refresh]);
    if (!open || open.key !== key) {
      const batch: Batch = { key, filters, refresh, waiting: [] };
      open = batch;
      // Tiles start in one commit's effects: a microtask later they are all in (and fake clocks do not hold it).
      queueMicrotask(() => {
        if (open === batch) open = undefined;
        const [only] = batch.waiting;
        if (batch.waiting.length === 1 && only) single(only.tileId, filters, only.signal, refresh).then(only.resolve, only.reject);
        else void runBatch(path, batch);
      });
    }
    return new Promise<TileRun>((resolve, reject) => open!.waiting.push({ tileId, signal, resolve, reject }));
  };
}
