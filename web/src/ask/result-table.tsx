// A result table: sortable by any column, in pages (rows past the answer's first ones are fetched
// when needed), with the query behind it and downloads of the full result as CSV and Excel (re-run on
// the server under the person's permissions). Values are shown formatted (format-cell.ts); a copy
// of selected cells and the downloads carry the raw values.
import { useMemo, useState, type ClipboardEvent } from 'react';
import { Link } from 'react-router';
import type { ResultTable as Table } from './answer-state.ts';
import { columnFormat, formatCell, grainOfSql } from '../../../src/shared/format-cell.ts';
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

const raw = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const isNumeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v !== '' && Number.isFinite(Number(v)));

/** A copy of cells of the table gives their raw values, tab-separated by cell and a line per row (as spreadsheets paste). */
function copyRaw(e: ClipboardEvent<HTMLTableElement>): void {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed) return;
  const lines = Array.from(e.currentTarget.rows)
    .map((row) => Array.from(row.cells).filter((cell) => selection.containsNode(cell, true)))
    .filter((cells) => cells.length > 0)
    .map((cells) => cells.map((cell) => cell.dataset['raw'] ?? cell.textContent?.trim() ?? '').join('\t'));
  if (lines.length === 0) return;
  e.clipboardData.setData('text/plain', lines.join('\n'));
  e.preventDefault();
}

interface ResultTableProps {
  table: Table;
  chatId: string;
  index: number;
  /** The rows the answer brought only, no downloads (the public shared view has no session). */
  readOnly?: boolean;
  /** Where "Edit SQL" opens the table's query in the SQL editor; no link without it. */
  editSql?: string | undefined;
}

export function ResultTable({ table, chatId, index, readOnly = false, editSql }: ResultTableProps) {
  const [sort, setSort] = useState<Sort>();
  const [page, setPage] = useState(0);
  const loaded = useTableRows(table, chatId, readOnly);
  const rows = useMemo(() => {
    if (!sort) return loaded.rows;
    const sorted = [...loaded.rows].sort((x, y) => compare(x[sort.column], y[sort.column]));
    return sort.descending ? sorted.reverse() : sorted;
  }, [loaded.rows, sort]);
  // Read from the answer's rows (the first ones), so that a column keeps its format across pages.
  const formats = useMemo(() => {
    const grain = grainOfSql(table.sql);
    return table.columns.map((name, i) => columnFormat(name, table.rows.map((r) => r[i]), grain, table.formats?.[name]));
  }, [table.columns, table.rows, table.sql, table.formats]);
  const pages = Math.max(1, Math.ceil((readOnly ? table.rows.length : table.rowCount) / PAGE));
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
        {editSql && (
          <Link className="button" to={editSql}>
            Edit SQL
          </Link>
        )}
        {!readOnly && (
          <>
            <a className="button" href={`/api/download_big_csv_agentic?${query}`} download>
              Download CSV
            </a>
            <a className="button" href={`/api/download_excel_agentic?${query}`} download>
              Download Excel
            </a>
          </>
        )}
      </header>
      <div className="body">
        <table className="data-table" onCopy={copyRaw}>
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
                {row.map((v, i) => {
                  const format = formats[i] ?? { kind: 'text' };
                  return (
                    <td key={i} className={format.kind === 'number' || format.kind === 'identifier' || (format.kind === 'text' && isNumeric(v)) ? 'num' : undefined} data-raw={raw(v)}>
                      {formatCell(v, format)}
                    </td>
                  );
                })}
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
        {table.truncated && !readOnly && <span className="muted">The answer kept the first {table.rowCount} rows; downloads have them all.</span>}
        {readOnly && table.rows.length < table.rowCount && <span className="muted">The first {table.rows.length} rows are shown.</span>}
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
