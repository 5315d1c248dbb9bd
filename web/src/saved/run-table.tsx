// The rows of a saved question's run (on its page and in a dashboard's tile), shown formatted as the
// chat's result table and the report mails show them (format-cell.ts): thousands separators, dates at
// the query's grain. A copy or a download carries the raw values.
import { useMemo } from 'react';
import { columnFormat, formatCell, grainOfSql } from '../../../src/shared/format-cell.ts';

interface Result {
  columns: { name: string }[];
  rows: unknown[][];
  truncated: boolean;
}

const raw = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** The run's rows; `sql` is the question's, whose date truncation sets the grain dates are shown at. */
export function RunTable({ result, sql }: { result: Result; sql?: string | undefined }) {
  const formats = useMemo(() => {
    const grain = grainOfSql(sql);
    return result.columns.map((c, i) => columnFormat(c.name, result.rows.map((r) => r[i]), grain));
  }, [result, sql]);
  const caption = `${result.rows.length} row${result.rows.length === 1 ? '' : 's'}`;
  return (
    <section className="block" aria-label={`Result: ${caption}`}>
      <header>
        <strong>Result: {caption}</strong>
      </header>
      <div className="body">
        <table className="data-table">
          <thead>
            <tr>
              {result.columns.map((c) => (
                <th key={c.name} scope="col">
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.rows.map((row, r) => (
              <tr key={r}>
                {row.map((v, i) => {
                  const format = formats[i] ?? { kind: 'text' };
                  return (
                    <td key={i} className={format.kind === 'number' || format.kind === 'identifier' ? 'num' : undefined} data-raw={raw(v)}>
                      {formatCell(v, format)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {result.truncated && <p className="muted">The first {result.rows.length} rows are shown (the row limit).</p>}
    </section>
  );
}
