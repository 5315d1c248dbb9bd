// How an answer of the question set is judged: right, wrong, or refused. Expected rows come from
// DuckDB over the same warehouse; numbers are compared to 1e-9 of their size (nothing is rounded).
import { OFFLINE_UNSUPPORTED } from '../../src/agent/index.ts';
import type { AgentAnswer, DemoQuestion } from './demo-questions.ts';

export type Verdict = 'correct' | 'wrong' | 'refused';

/** Row sets equal value by value: numbers as numbers, everything else as text. */
export function sameRows(a: unknown[][], b: unknown[][]): boolean {
  return (
    a.length === b.length &&
    a.every((row, i) =>
      row.length === b[i]!.length &&
      row.every((v, j) => {
        const w = b[i]![j];
        const [x, y] = [Number(v), Number(w)];
        const numbers = v !== null && w !== null && Number.isFinite(x) && Number.isFinite(y);
        return numbers ? Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)) : String(v) === String(w);
      }),
    )
  );
}

/** The verdict on one answer; `expected` runs a query on the warehouse. */
export async function judge(q: DemoQuestion, a: AgentAnswer, expected: (sql: string) => Promise<unknown[][]>): Promise<Verdict> {
  const refused = a.sql.length === 0 && a.content.includes(OFFLINE_UNSUPPORTED);
  if (refused) return 'refuse' in q.expected ? 'correct' : 'refused';
  if ('refuse' in q.expected) return 'wrong';
  if ('noData' in q.expected) return a.sql.length === 0 && /No data for that period; the data covers 2022-01-01 to 2026-10-31/.test(a.content) ? 'correct' : 'wrong';
  const rows = await expected(q.expected.sql);
  if (a.tables.length !== 1 || !sameRows(a.tables[0]!.rows, rows)) return 'wrong';
  // The numbers are right; the text must also print them as asked (in thousands, as shares...).
  return !q.expected.says || a.content.includes(q.expected.says(rows)) ? 'correct' : 'wrong';
}
