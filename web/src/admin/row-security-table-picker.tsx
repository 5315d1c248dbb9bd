// Choosing the documented table whose row filters to change: a search on the server over the
// tables' ids and names, showing the first matches, since an organization may document 10,000.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { SearchForm } from '../ui/search-form.tsx';
import { useLoad } from '../ui/use-load.ts';

const SHOWN = 20;

interface TablePickerProps {
  /** Reads again when it changes (the environment). */
  scope: string;
  chosen: string;
  onChoose: (id: string) => void;
}

export function TablePicker({ scope, chosen, onChoose }: TablePickerProps) {
  const [q, setQ] = useState('');
  const found = useLoad(
    (signal) => call(api.GET('/api/knowledge/{kind}', { params: { path: { kind: 'tables' }, query: { q: q || undefined, limit: SHOWN } }, signal })),
    `${scope}\n${q}`,
  );
  const data = found.data;
  return (
    <>
      <SearchForm name="Tables" label="Find a table by name or path" button="Find" onSearch={setQ} />
      <FormAlert problem={found.problem} />
      {data && data.items.length === 0 && <p>{q ? `No documented table matches “${q}”.` : 'No table is documented yet.'}</p>}
      {data && data.items.length > 0 && (
        <>
          <p aria-live="polite" className="muted">
            {data.total > data.items.length ? `The first ${data.items.length} of ${data.total.toLocaleString('en-US')} tables${q ? ` matching “${q}”` : ''}: narrow the search to find others.` : `${data.total} ${data.total === 1 ? 'table' : 'tables'}${q ? ` matching “${q}”` : ''}.`}
          </p>
          <ul className="actions" aria-label="Tables found">
            {data.items.map((t) => (
              <li key={t.id}>
                <button type="button" aria-pressed={t.id === chosen} onClick={() => onChoose(t.id)}>
                  {t.id}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
