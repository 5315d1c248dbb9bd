// /knowledge/items/:kind/:id (and /new): one item's fields to edit, save or delete. A save names the
// version it was based on (If-Match); when someone else saved meanwhile (412 or 409) the person sees
// their version beside the draft, which is kept (also across reloads, in local storage). Where the
// organization changes production only through environments, production's items are read-only.
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useActiveEnvironment } from '../api/environment.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { ItemEditor, type Item } from './item-editor.tsx';
import { isKind, itemTitle, KIND_SINGULAR, TEMPLATES, type Kind } from './kinds.ts';
import { itemPath } from './items-page.tsx';
import { NewItemForm } from './new-item-form.tsx';
import { ProductionLocked, useProductionLocked } from './production-lock.tsx';
import { ReadOnlyItem } from './read-only-item.tsx';

export function ItemPage() {
  const { kind, id } = useParams();
  if (!isKind(kind) || !id) return <p role="alert">There is no such item.</p>;
  if (id === 'new') return <NewItem kind={kind} />;
  return <ExistingItem kind={kind} id={id} />;
}

/** Reads one item where the person works. */
export const readItem = (kind: Kind, id: string, signal?: AbortSignal): Promise<Item> =>
  call(api.GET('/api/knowledge/{kind}/{id}', { params: { path: { kind, id } }, ...(signal ? { signal } : {}) }));

function ExistingItem({ kind, id }: { kind: Kind; id: string }) {
  const env = useActiveEnvironment();
  const navigate = useNavigate();
  const item = useLoad((signal) => readItem(kind, id, signal), `${kind}:${id}:${env?.id ?? ''}`);
  const locked = useProductionLocked();
  useDocumentTitle(item.data ? itemTitle(item.data) : id);
  if (!item.data) return item.problem ? <FormAlert problem={item.problem} /> : <p role="status">Loading…</p>;
  if (locked) return <ReadOnlyItem item={item.data} />;
  return (
    <ItemEditor
      key={`${env?.id ?? ''}:${item.data.path}`}
      item={item.data}
      draftKey={`knowledge.${env?.id ?? 'production'}.${kind}.${id}`}
      where={env ? `environment ${env.name}` : 'production'}
      onDeleted={() => void navigate(`/knowledge/items/${kind}`)}
    />
  );
}

function NewItem({ kind }: { kind: Kind }) {
  const env = useActiveEnvironment();
  const navigate = useNavigate();
  const locked = useProductionLocked();
  useDocumentTitle(`New ${KIND_SINGULAR[kind]}`);
  if (locked)
    return (
      <section aria-labelledby="new-title">
        <h1 id="new-title">New {KIND_SINGULAR[kind]}</h1>
        <ProductionLocked change={`New ${KIND_SINGULAR[kind]}`} />
      </section>
    );
  return (
    <NewItemForm
      kind={kind}
      template={TEMPLATES[kind]}
      draftKey={`knowledge.${env?.id ?? 'production'}.${kind}.new`}
      where={env ? `environment ${env.name}` : 'production'}
      onCreated={(created) => void navigate(itemPath(kind, created.id))}
    />
  );
}
