// The rows of a saved question's run, as a plain table.

interface Result {
  columns: { name: string }[];
  rows: unknown[][];
  truncated: boolean;
}

const show = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function RunTable({ result }: { result: Result }) {
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
                {row.map((v, i) => (
                  <td key={i}>{show(v)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {result.truncated && <p className="muted">The first {result.rows.length} rows are shown (the row limit).</p>}
    </section>
  );
}
