// The one way a page reads something: loading state, the problem to show, a reload, and local
// updates after a change the server confirmed (so a list need not be fetched again).
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiProblem } from '../api/problem.ts';

export interface Loaded<T> {
  data: T | undefined;
  loading: boolean;
  problem: ApiProblem | undefined;
  /** Reads again; what is shown stays until the answer arrives. */
  reload: () => Promise<void>;
  /** Changes what is shown (after the server confirmed the change). */
  update: (change: (data: T) => T) => void;
}

/** Reads with `load` when the page opens and whenever `key` changes. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, key = ''): Loaded<T> {
  const [data, setData] = useState<T | undefined>();
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const latest = useRef(load);
  latest.current = load;
  const current = useRef<AbortController | undefined>(undefined);
  const reload = useCallback(async () => {
    current.current?.abort();
    const abort = new AbortController();
    current.current = abort;
    setLoading(true);
    try {
      const value = await latest.current(abort.signal);
      if (abort.signal.aborted) return;
      setData(value);
      setProblem(undefined);
    } catch (err) {
      if (abort.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
      setProblem(err instanceof ApiProblem ? err : new ApiProblem(0, 'Something went wrong in the page. Try again.', 'CLIENT_ERROR'));
    } finally {
      if (!abort.signal.aborted) setLoading(false);
    }
  }, []);
  useEffect(() => {
    void reload();
    return () => current.current?.abort();
  }, [reload, key]);
  const update = useCallback((change: (data: T) => T) => setData((d) => (d === undefined ? d : change(d))), []);
  return { data, loading, problem, reload, update };
}
