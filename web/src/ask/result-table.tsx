// A result table: sortable by any column, in pages (rows past the answer's first ones are fetched
// when needed), with the query behind it and downloads of the full result as CSV and Excel (re-run on
// the server under the person's permissions).
import { useMemo, useState } from 'react';
import type { ResultTable as Table } from './answer-state.ts';
import { SqlBlock } from './sql-block.tsx';
import { useTableRows } from './use-table-rows.ts';

const PAGE = 20;

type Sort = { column: number; descending: boolean } | undefined;

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const na = Number(a);
  const nb = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return String(a).localeCompare(String(b));
}

const show = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const isNumeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v !== '' && Number.isFinite(Number(v)));

export function ResultTable({ table, chatId, index }: { table: Table; chatId: string; index: number }) {
  const [sort, setSort] = useState<Sort>();
  const [page, setPage] = useState(0);
  const loaded = useTableRows(table, chatId);
  const rows = useMemo(() => {
    if (!sort) return loaded.rows;
    const sorted = [...loaded.rows].sort((x, y) => compare(x[sort.column], y[sort.column]));
    return sort.descending ? sorted.reverse() : sorted;
  }, [loaded.rows, sort]);
  const pages = Math.max(1, Math.ceil(table.rowCount / PAGE));
  const shown = rows.slice(page * PAGE, page * PAGE + PAGE);
  const query = `chat_id=${encodeURIComponent(chatId)}&df_key=${encodeURIComponent(table.dfKey)}`;
  const caption = `Result ${index + 1}: ${table.rowCount} row${table.rowCount === 1 ? '' : 's'}`;
  const toggle = (column: number) => {
    // A sort is over the whole result: fetch what is missing first.
    void loaded.ensure(table.rowCount);
    setSort((s) => (s?.column === column ? (s.descending ? undefined : { column, descending: true }) : { column, descending: false }));
    setPage(0);
  };
  const goTo = (p: number) => {
    void loaded.ensure((p + 1) * PAGE);
    setPage(p);
  };
  return (
    <section className="block" aria-label={caption}>
      <header>
        <strong>{caption}</strong>
        <span className="spacer" />
        <a className="button" href={`/api/download_big_csv_agentic?${query}`} download>
          Download CSV
        </a>
        <a className="button" href={`/api/download_excel_agentic?${query}`} download>
          Download Excel
        </a>
      </header>
      <div className="body">
        <table className="data-table">
          <thead>
            <tr>
              {table.columns.map((c, i) => (
                <th key={c} scope="col" aria-sort={sort?.column === i ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                  <button type="button" onClick={() => toggle(i)}>
                    {c} {sort?.column === i ? (sort.descending ? '▼' : '▲') : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, r) => (
              <tr key={page * PAGE + r}>
                {row.map((v, i) => (
                  <td key={i} className={isNumeric(v) ? 'num' : undefined}>
                    {show(v)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {table.sql && <SqlBlock sql={table.sql} />}
      </div>
      <div className="pager">
        {loaded.loading && <span role="status">Loading rows…</span>}
        {loaded.problem && (
          <span className="field-error" role="alert">
            {loaded.problem.message}
          </span>
        )}
        {table.truncated && <span className="muted">The answer kept the first {table.rowCount} rows; downloads have them all.</span>}
        <button type="button" disabled={page === 0} onClick={() => goTo(page - 1)} aria-label="Previous page">
          ‹
        </button>
        <span>
          Page {page + 1} of {pages}
        </span>
        <button type="button" disabled={page + 1 >= pages} onClick={() => goTo(page + 1)} aria-label="Next page">
          ›
        </button>
      </div>
    </section>
  );
}
