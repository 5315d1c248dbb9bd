// /knowledge/items/:kind: the items of one kind where the person works (production or the active
// environment), each opening its editor, and the way to create one.
import { Link, useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useActiveEnvironment } from '../api/environment.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { ProductionLocked, useProductionLocked } from './production-lock.tsx';
import { isKind, itemTitle, KIND_LABELS, KIND_SINGULAR, type Kind } from './kinds.ts';

export const itemPath = (kind: Kind, id: string) => `/knowledge/items/${kind}/${encodeURIComponent(id)}`;

export function ItemsPage() {
  const { kind } = useParams();
  if (!isKind(kind)) return <p role="alert">There is no kind of knowledge named {kind}.</p>;
  return <ItemList kind={kind} />;
}

function ItemList({ kind }: { kind: Kind }) {
  const env = useActiveEnvironment();
  const locked = useProductionLocked();
  useDocumentTitle(KIND_LABELS[kind]);
  const items = useLoad((signal) => call(api.GET('/api/knowledge/{kind}', { params: { path: { kind } }, signal })), `${kind}:${env?.id ?? ''}`);
  return (
    <section aria-labelledby="items-title">
      <h1 id="items-title">{KIND_LABELS[kind]}</h1>
      <p className="muted">{env ? `In environment ${env.name}.` : 'In production.'}</p>
      {locked ? (
        <ProductionLocked change={`Change ${KIND_LABELS[kind].toLowerCase()}`} />
      ) : (
        <p>
          <Link className="button primary" to={`/knowledge/items/${kind}/new`}>
            New {KIND_SINGULAR[kind]}
          </Link>
        </p>
      )}
      <FormAlert problem={items.problem} />
      {items.loading && !items.data && <p role="status">Loading…</p>}
      {items.data &&
        (items.data.items.length === 0 ? (
          <p>No {KIND_LABELS[kind].toLowerCase()} yet.</p>
        ) : (
          <ul className="cards" aria-label={KIND_LABELS[kind]}>
            {items.data.items.map((item) => (
              <li key={item.id} className="card row">
                <Link to={itemPath(kind, item.id)}>{itemTitle(item)}</Link>
                <span className="spacer" />
                <code>{item.path}</code>
                {item.error && <span className="status error">Unreadable</span>}
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
