// The rows of a result table as far as they are needed: the answer brings the first ones, the rest
// come from the server (the query re-run as the person) when a page or a sort needs them.
import { useCallback, useRef, useState } from 'react';
import { api, call } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import type { ResultTable } from './answer-state.ts';

export interface TableRows {
  rows: unknown[][];
  /** Every row of the result is here. */
  complete: boolean;
  loading: boolean;
  problem: ApiProblem | undefined;
  /** Makes sure the first `count` rows (or all of them) are loaded. */
  ensure: (count: number) => Promise<void>;
}

export function useTableRows(table: ResultTable, chatId: string): TableRows {
  const [rows, setRows] = useState(table.rows);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const loaded = useRef(table.rows);
  const complete = rows.length >= table.rowCount;
  const ensure = useCallback(
    async (count: number) => {
      const have = loaded.current.length;
      const want = Math.min(count, table.rowCount);
      if (have >= want) return;
      setLoading(true);
      setProblem(undefined);
      try {
        const page = await call(api.GET('/api/agentic/table_rows', { params: { query: { chat_id: chatId, df_key: table.dfKey, offset: have, limit: want - have } } }));
        loaded.current = [...loaded.current, ...page.rows];
        setRows(loaded.current);
      } catch (err) {
        setProblem(err instanceof ApiProblem ? err : undefined);
      } finally {
        setLoading(false);
      }
    },
    [chatId, table.dfKey, table.rowCount],
  );
  return { rows, complete, loading, problem, ensure };
}
