// An item of production where the organization changes production only through environments: its
// file to read, and the way to an environment to change it in.
import { itemTitle, KIND_SINGULAR, type Kind } from './kinds.ts';
import type { Item } from './item-editor.tsx';
import { ProductionLocked } from './production-lock.tsx';

export function ReadOnlyItem({ item }: { item: Item }) {
  const kind = item.kind as Kind;
  return (
    <section aria-labelledby="item-title">
      <h1 id="item-title">{itemTitle(item)}</h1>
      <p className="muted">
        The {KIND_SINGULAR[kind]} <code>{item.path}</code> in production.
      </p>
      <ProductionLocked change={`Change ${itemTitle(item)}`} />
      <pre aria-label={`The ${KIND_SINGULAR[kind]} as it is`}>
        {item.yaml}
      </pre>
    </section>
  );
}
