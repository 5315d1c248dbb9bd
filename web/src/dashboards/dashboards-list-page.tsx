// /dashboards: the organization's dashboards and the person's private ones, searched by title or
// description in keyset pages, and a new one by title.
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageButtons, useSearchedPages } from '../admin/pages.tsx';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { SearchForm } from '../ui/search-form.tsx';
import { useAction } from '../ui/use-action.ts';
import { dashboardPath } from './dashboard-paths.ts';

const PAGE = 50;

export function DashboardsListPage() {
  useDocumentTitle('Dashboards');
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const { q, search, pages, list } = useSearchedPages(heading, (query, signal) => call(api.GET('/api/dashboards', { params: { query: { ...query, limit: PAGE } }, signal })));
  // No dashboard at all (not none matching, not an empty last page): the search would only be in the way.
  const none = !q && !pages.hasPrevious && list.data?.dashboards.length === 0;
  const [title, setTitle] = useState('');
  const create = useAction(async () => {
    const d = await call(api.POST('/api/dashboards', { body: { title, tiles: [] } }));
    void navigate(dashboardPath(d.id));
  });
  return (
    <section className="saved-page" aria-labelledby="dashboards-title">
      <h1 id="dashboards-title" ref={heading} tabIndex={-1}>
        Dashboards
      </h1>
      <p className="muted">Saved questions and notes on one page, with filters. Every tile runs with your permissions when opened.</p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void create.run();
        }}
      >
        <label>
          New dashboard <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Title" />
        </label>
        <button type="submit" disabled={!title.trim() || create.pending}>
          Create
        </button>
      </form>
      {!none && <SearchForm name="Dashboards" label="Search by title or description" onSearch={search} />}
      <FormAlert problem={list.problem ?? create.problem} />
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.dashboards.length === 0 ? (
          <p>{none ? 'No dashboards yet.' : q ? `No dashboard matches “${q}”.` : 'No dashboard on this page.'}</p>
        ) : (
          <ul className="cards" aria-label="Dashboards">
            {list.data.dashboards.map((d) => (
              <li key={d.id} className="card">
                <div className="row">
                  <Link to={dashboardPath(d.id)}>{d.title}</Link>
                  <span className="spacer" />
                  <span className="muted">
                    {d.tile_count} tile{d.tile_count === 1 ? '' : 's'} · {d.visibility === 'organization' ? 'Organization' : 'Private'}
                  </span>
                </div>
                {d.description && <p className="muted card-note">{d.description}</p>}
              </li>
            ))}
          </ul>
        ))}
      <PageButtons label="Dashboard pages" pages={pages} nextCursor={list.data?.next_cursor} previousText="Previous page" nextText="Next page" />
    </section>
  );
}
