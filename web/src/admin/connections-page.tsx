// /admin/connections: the organization's warehouse connections: list, add, edit, test, sync the
// table documentation, and delete (after seeing what depends on it). Passwords go in, never out.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { ConnectionDelete } from './connections-delete.tsx';
import { ConnectionForm } from './connections-form.tsx';
import { ConnectionSync } from './connections-sync.tsx';
import { ConnectionTest } from './connections-test.tsx';
import { typeLabel, whereItPoints, type Connection } from './connections-words.ts';

export function ConnectionsPage() {
  useDocumentTitle('Connections');
  const list = useLoad((signal) => call(api.GET('/api/connections', { signal })));
  const [editing, setEditing] = useState<string | undefined>();
  const [done, setDone] = useState('');
  // Bumped by each connection added, so the form for the next one starts empty.
  const [added, setAdded] = useState(0);
  const saved = (c: Connection) => {
    setEditing(undefined);
    setDone(`${c.name} saved. Test it, then sync its table documentation.`);
    void list.reload();
  };
  const deleted = (c: Connection) => {
    list.update((d) => ({ connections: d.connections.filter((x) => x.id !== c.id) }));
    setDone(`${c.name} deleted.`);
  };
  return (
    <>
      <h1>Connections</h1>
      <p>The warehouses Sextant answers questions from. Members query them through their row filters; Sextant only reads.</p>
      <FormAlert problem={list.problem} />
      {done && <Note>{done}</Note>}
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.connections.length === 0 ? (
          <p>No connection yet: add the first one below.</p>
        ) : (
          <ul className="cards" aria-label="Connections">
            {list.data.connections.map((c) => (
              <li key={c.id} className="card" aria-label={`Connection ${c.name}`}>
                <h3>{c.name}</h3>
                <p className="muted">
                  {typeLabel(c.type)} · {whereItPoints(c)} · id {c.id}
                  {c.has_password ? ' · password set' : ''}
                </p>
                <div className="connection-actions">
                  <ConnectionTest connection={c} />
                  <ConnectionSync connection={c} />
                  <button type="button" aria-label={`Edit ${c.name}`} aria-expanded={editing === c.id} onClick={() => setEditing(editing === c.id ? undefined : c.id)}>
                    Edit
                  </button>
                  <ConnectionDelete connection={c} onDeleted={deleted} />
                </div>
                {editing === c.id && <ConnectionForm connection={c} onSaved={saved} />}
              </li>
            ))}
          </ul>
        ))}
      <section aria-labelledby="new-connection-title">
        <h2 id="new-connection-title">Add a connection</h2>
        <ConnectionForm
          key={added}
          onSaved={(c) => {
            setAdded((n) => n + 1);
            saved(c);
          }}
        />
      </section>
    </>
  );
}
