// Running the editor's SQL through the governed path every query takes (POST /api/execute_query: the
// guard, governed sources, row-level security, the row limit), and stopping it: Stop aborts the
// request, and the server stops the query in the warehouse when its client goes away.
import { useCallback, useRef, useState } from 'react';
import { api, call } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import type { ResponseOf } from '../api/types.ts';

export type QueryResult = ResponseOf<'/api/execute_query', 'post'>;

export interface QueryRun {
  result: QueryResult | undefined;
  problem: ApiProblem | undefined;
  running: boolean;
  /** The last run was stopped by the person. */
  stopped: boolean;
  run: (connectionId: string | undefined, sql: string) => Promise<void>;
  stop: () => void;
}

export function useQueryRun(): QueryRun {
  const [result, setResult] = useState<QueryResult | undefined>();
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [running, setRunning] = useState(false);
  const [stopped, setStopped] = useState(false);
  const current = useRef<AbortController | undefined>(undefined);
  const run = useCallback(async (connectionId: string | undefined, sql: string) => {
    current.current?.abort();
    const abort = new AbortController();
    current.current = abort;
    setRunning(true);
    setStopped(false);
    setProblem(undefined);
    try {
      const body = { sql, ...(connectionId ? { connection_id: connectionId } : {}) };
      setResult(await call(api.POST('/api/execute_query', { body, signal: abort.signal })));
    } catch (err) {
      if (abort.signal.aborted) return;
      setProblem(err instanceof ApiProblem ? err : new ApiProblem(0, 'Something went wrong in the page. Try again.', 'CLIENT_ERROR'));
    } finally {
      if (current.current === abort) setRunning(false);
    }
  }, []);
  const stop = useCallback(() => {
    current.current?.abort();
    current.current = undefined;
    setRunning(false);
    setStopped(true);
  }, []);
  return { result, problem, running, stopped, run, stop };
}
