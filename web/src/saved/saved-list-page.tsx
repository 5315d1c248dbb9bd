// /saved: the organization's saved questions and the person's private ones, last edited first.
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { savedPath } from './saved-paths.ts';

export function SavedListPage() {
  useDocumentTitle('Saved questions');
  const list = useLoad((signal) => call(api.GET('/api/saved_questions', { signal })));
  return (
    <section className="saved-page" aria-labelledby="saved-title">
      <h1 id="saved-title">Saved questions</h1>
      <p className="muted">Each one runs again when opened, with your permissions, and shows when its data was read.</p>
      <FormAlert problem={list.problem} />
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.questions.length === 0 ? (
          <p>No saved questions yet: use Save on an answer.</p>
        ) : (
          <ul className="cards" aria-label="Saved questions">
            {list.data.questions.map((q) => (
              <li key={q.id} className="card">
                <div className="row">
                  <Link to={savedPath(q.id)}>{q.title}</Link>
                  <span className="spacer" />
                  <span className="muted">{q.visibility === 'organization' ? 'Organization' : 'Private'}</span>
                </div>
                {q.description && <p className="muted card-note">{q.description}</p>}
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
