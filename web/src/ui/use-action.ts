// The one way a form sends something: pending state, the server's problem kept for display (plain
// message plus 422 messages per field), and nothing typed is touched. Forms keep their own inputs.
import { useCallback, useRef, useState } from 'react';
import { ApiProblem } from '../api/problem.ts';

export interface Action<A extends unknown[], R> {
  /** Runs the action; resolves to its result, or undefined when it failed (the problem is kept). */
  run: (...args: A) => Promise<R | undefined>;
  pending: boolean;
  problem: ApiProblem | undefined;
  /** The server's message for a field (422), if any. */
  fieldError: (name: string) => string | undefined;
  clear: () => void;
}

/** Wraps an async function for a form or a button. Non-API errors become a plain problem too. */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>): Action<A, R> {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const latest = useRef(fn);
  latest.current = fn;
  const run = useCallback(async (...args: A) => {
    setPending(true);
    setProblem(undefined);
    try {
      return await latest.current(...args);
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return undefined;
      setProblem(err instanceof ApiProblem ? err : new ApiProblem(0, 'Something went wrong in the page. Try again.', 'CLIENT_ERROR'));
      if (!(err instanceof ApiProblem)) console.error(err);
      return undefined;
    } finally {
      setPending(false);
    }
  }, []);
  const fieldError = useCallback((name: string) => problem?.fields[name], [problem]);
  const clear = useCallback(() => setProblem(undefined), []);
  return { run, pending, problem, fieldError, clear };
}
