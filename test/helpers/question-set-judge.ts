// How an answer of a question set is judged: right, wrong, or refused. Expected rows come from the
// question's SQL over the same warehouse; numbers are compared to 1e-9 of their size (nothing is
// rounded). A period outside the data is answered without a query, saying so: right when the
// expected query finds nothing there (a count of 0, a sum of NULL).
import { OFFLINE_UNSUPPORTED } from '../../src/agent/index.ts';
import type { AgentAnswer, Expected } from './demo-questions.ts';

export type Verdict = 'correct' | 'wrong' | 'refused';

const NO_DATA = /No data for that period; the data covers \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/;

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

const nothing = (rows: unknown[][]) => rows.length === 1 && rows[0]!.length === 1 && (rows[0]![0] === null || Number(rows[0]![0]) === 0);

/** The verdict on one answer; `rowsOf` runs a query on the warehouse, `same` compares row sets. */
export async function judge(expected: Expected, a: AgentAnswer, rowsOf: (sql: string) => Promise<unknown[][]>, same = sameRows): Promise<Verdict> {
  const refused = a.sql.length === 0 && a.content.includes(OFFLINE_UNSUPPORTED);
  if (refused) return 'refuse' in expected ? 'correct' : 'refused';
  if ('refuse' in expected) return 'wrong';
  const rows = await rowsOf(expected.sql);
  if (a.sql.length === 0 && NO_DATA.test(a.content)) return nothing(rows) ? 'correct' : 'wrong';
  if (a.tables.length !== 1 || !same(a.tables[0]!.rows, rows)) return 'wrong';
  // The numbers are right; the text must also print them as asked (in thousands, as shares...).
  return !expected.says || a.content.includes(expected.says(rows)) ? 'correct' : 'wrong';
}
