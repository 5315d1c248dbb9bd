// /knowledge/items/:kind: the items of one kind where the person works (production or the active
// environment), searched and paged on the server (an organization may document 10,000 tables), each
// opening its editor, and the way to create one.
import { useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useActiveEnvironment } from '../api/environment.ts';
import { PageButtons, usePages } from '../admin/pages.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { SearchForm } from '../ui/search-form.tsx';
import { useLoad } from '../ui/use-load.ts';
import { ProductionLocked, useProductionLocked } from './production-lock.tsx';
import { isKind, itemTitle, KIND_LABELS, KIND_SINGULAR, type Kind } from './kinds.ts';
import { pageRange } from './page-range.ts';

const PAGE = 50;

export const itemPath = (kind: Kind, id: string) => `/knowledge/items/${kind}/${encodeURIComponent(id)}`;

export function ItemsPage() {
  const { kind } = useParams();
  if (!isKind(kind)) return <p role="alert">There is no kind of knowledge named {kind}.</p>;
  // Keyed by kind: a search or page of one kind means nothing for another.
  return <ItemList key={kind} kind={kind} />;
}

function ItemList({ kind }: { kind: Kind }) {
  const env = useActiveEnvironment();
  const locked = useProductionLocked();
  const label = KIND_LABELS[kind];
  useDocumentTitle(label);
  const [q, setQ] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const pages = usePages(heading);
  const cursor = pages.cursor;
  const items = useLoad(
    (signal) => call(api.GET('/api/knowledge/{kind}', { params: { path: { kind }, query: { q: q || undefined, cursor, limit: PAGE } }, signal })),
    `${env?.id ?? ''}\n${q}\n${cursor ?? ''}`,
  );
  const search = (text: string) => {
    pages.reset();
    setQ(text);
  };
  const data = items.data;
  return (
    <section aria-labelledby="items-title">
      <h1 id="items-title" ref={heading} tabIndex={-1}>
        {label}
      </h1>
      <p className="muted">{env ? `In environment ${env.name}.` : 'In production.'}</p>
      {locked ? (
        <ProductionLocked change={`Change ${label.toLowerCase()}`} />
      ) : (
        <p>
          <Link className="button primary" to={`/knowledge/items/${kind}/new`}>
            New {KIND_SINGULAR[kind]}
          </Link>
        </p>
      )}
      <SearchForm name={label} label="Search by name or path" onSearch={search} />
      <FormAlert problem={items.problem} />
      {items.loading && !data && <p role="status">Loading…</p>}
      <p aria-live="polite" className="muted">
        {data && data.items.length > 0 && pageRange(pages.index * PAGE, data.items.length, data.total, q)}
      </p>
      {data &&
        (data.items.length === 0 ? (
          <p>{q ? `No ${KIND_SINGULAR[kind]} matches “${q}”.` : `No ${label.toLowerCase()} yet.`}</p>
        ) : (
          <ul className="cards" aria-label={label}>
            {data.items.map((item) => (
              <li key={item.id} className="card row">
                <Link to={itemPath(kind, item.id)}>{itemTitle(item)}</Link>
                <span className="spacer" />
                <code>{item.path}</code>
                {item.error && <span className="status error">Unreadable</span>}
              </li>
            ))}
          </ul>
        ))}
      <PageButtons label={`${label} pages`} pages={pages} nextCursor={data?.next_cursor} previousText="Previous page" nextText="Next page" />
    </section>
  );
}
