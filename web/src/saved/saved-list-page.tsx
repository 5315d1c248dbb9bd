// /saved: the organization's saved questions and the person's private ones, last edited first,
// searched by title or description, in keyset pages.
import { useRef } from 'react';
import { Link } from 'react-router';
import { PageButtons, useSearchedPages } from '../admin/pages.tsx';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { SearchForm } from '../ui/search-form.tsx';
import { savedPath } from './saved-paths.ts';

const PAGE = 50;

export function SavedListPage() {
  useDocumentTitle('Saved questions');
  const heading = useRef<HTMLHeadingElement>(null);
  const { q, search, pages, list } = useSearchedPages(heading, (query, signal) => call(api.GET('/api/saved_questions', { params: { query: { ...query, limit: PAGE } }, signal })));
  // No question at all (not none matching, not an empty last page): the search would only be in the way.
  const none = !q && !pages.hasPrevious && list.data?.questions.length === 0;
  return (
    <section className="saved-page" aria-labelledby="saved-title">
      <h1 id="saved-title" ref={heading} tabIndex={-1}>
        Saved questions
      </h1>
      <p className="muted">Each one runs again when opened, with your permissions, and shows when its data was read.</p>
      {!none && <SearchForm name="Saved questions" label="Search by title or description" onSearch={search} />}
      <FormAlert problem={list.problem} />
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.questions.length === 0 ? (
          <p>{none ? 'No saved questions yet: use Save on an answer.' : q ? `No saved question matches “${q}”.` : 'No saved question on this page.'}</p>
        ) : (
          <ul className="cards" aria-label="Saved questions">
            {list.data.questions.map((question) => (
              <li key={question.id} className="card">
                <div className="row">
                  <Link to={savedPath(question.id)}>{question.title}</Link>
                  <span className="spacer" />
                  <span className="muted">{question.visibility === 'organization' ? 'Organization' : 'Private'}</span>
                </div>
                {question.description && <p className="muted card-note">{question.description}</p>}
              </li>
            ))}
          </ul>
        ))}
      <PageButtons label="Saved question pages" pages={pages} nextCursor={list.data?.next_cursor} previousText="Previous page" nextText="Next page" />
    </section>
  );
}
