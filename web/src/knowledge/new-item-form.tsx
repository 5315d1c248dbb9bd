// Creating an item: the kind's fields to fill (kept as a draft until created), and for notes and
// reports an optional file id (otherwise made from the title).
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { useDraft } from '../lib/drafts.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { Item } from './item-editor.tsx';
import { fromDrafts, ItemFields, otherMessages, toDrafts, type FieldDraft } from './item-fields.tsx';
import { KIND_SINGULAR, NAMED_BY_QUERY, type Kind } from './kinds.ts';

interface NewItemFormProps {
  kind: Kind;
  template: Record<string, unknown>;
  draftKey: string;
  where: string;
  onCreated: (item: Item) => void;
}

export function NewItemForm({ kind, template, draftKey, where, onCreated }: NewItemFormProps) {
  const [raw, setRaw] = useDraft(draftKey);
  const [fileId, setFileId] = useDraft(`${draftKey}.id`);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const fields = readFields(raw) ?? toDrafts(template);
  const create = useAction(async () => {
    const parsed = fromDrafts(fields);
    if ('errors' in parsed) return setLocalErrors(parsed.errors);
    setLocalErrors({});
    const query = NAMED_BY_QUERY.has(kind) && fileId.trim() ? { id: fileId.trim() } : {};
    const created = await call(api.POST('/api/knowledge/{kind}', { params: { path: { kind }, query }, body: parsed.data }));
    setRaw('');
    setFileId('');
    onCreated(created);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!create.pending) void create.run();
  };
  const serverFields = create.problem?.fields ?? {};
  const other = otherMessages(serverFields, fields).filter((m) => !m.startsWith('id: ') || !NAMED_BY_QUERY.has(kind));
  return (
    <section aria-labelledby="new-item-title">
      <h1 id="new-item-title">New {KIND_SINGULAR[kind]}</h1>
      <p className="muted">Created in {where}.</p>
      <form onSubmit={submit} noValidate aria-labelledby="new-item-title">
        <FormAlert problem={create.problem} />
        {other.length > 0 && (
          <ul className="alert error" aria-label="Other problems">
            {other.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        {NAMED_BY_QUERY.has(kind) && (
          <Field label="File id" value={fileId} onChange={setFileId} error={serverFields['id']} hint="Optional: made from the title when left empty." />
        )}
        <ItemFields drafts={fields} onChange={(next) => setRaw(JSON.stringify(next))} errors={{ ...serverFields, ...localErrors }} />
        <div className="actions">
          <button type="submit" className="primary">
            Create {KIND_SINGULAR[kind]}
          </button>
        </div>
      </form>
    </section>
  );
}

function readFields(raw: string): FieldDraft[] | undefined {
  try {
    const parsed = raw ? (JSON.parse(raw) as unknown) : undefined;
    return Array.isArray(parsed) ? (parsed as FieldDraft[]) : undefined;
  } catch {
    return undefined;
  }
}
