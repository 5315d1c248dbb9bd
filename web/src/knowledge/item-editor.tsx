// The editor of an existing item. The draft (fields and the version it started from) lives in local
// storage until saved or discarded, so a failed save, a reload or a sign-in detour loses nothing.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import type { ResponseOf } from '../api/types.ts';
import { useDraft } from '../lib/drafts.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { fromDrafts, ItemFields, otherMessages, toDrafts, type FieldDraft } from './item-fields.tsx';
import { itemTitle, KIND_SINGULAR, type Kind } from './kinds.ts';

export type Item = ResponseOf<'/api/knowledge/{kind}/{id}', 'get'>;

interface Draft {
  base: string;
  fields: FieldDraft[];
}

const CONFLICT = new Set(['KNOWLEDGE_VERSION_MISMATCH', 'KNOWLEDGE_EDIT_CONFLICT']);

/** The kept draft of this item, or undefined. */
function readDraft(raw: string): Draft | undefined {
  try {
    const d = raw ? (JSON.parse(raw) as Draft) : undefined;
    return d && typeof d.base === 'string' && Array.isArray(d.fields) ? d : undefined;
  } catch {
    return undefined;
  }
}

interface ItemEditorProps {
  item: Item;
  draftKey: string;
  where: string;
  onDeleted: () => void;
}

export function ItemEditor({ item: loaded, draftKey, where, onDeleted }: ItemEditorProps) {
  const [item, setItem] = useState(loaded);
  const [raw, setRaw] = useDraft(draftKey);
  const kept = readDraft(raw);
  const fields = kept?.fields ?? toDrafts((item.data ?? {}) as Record<string, unknown>);
  const base = kept?.base ?? item.version;
  const [theirs, setTheirs] = useState<Item | undefined>();
  const [saved, setSaved] = useState(false);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const kind = item.kind as Kind;
  const setFields = (next: FieldDraft[]) => {
    setSaved(false);
    setRaw(JSON.stringify({ base, fields: next }));
  };
  const save = useAction(async () => {
    const parsed = fromDrafts(fields);
    if ('errors' in parsed) return setLocalErrors(parsed.errors);
    setLocalErrors({});
    try {
      const next = await call(api.PUT('/api/knowledge/{kind}/{id}', { params: { path: { kind, id: item.id } }, body: parsed.data, headers: { 'If-Match': `"${base}"` } }));
      setRaw('');
      setItem(next);
      setTheirs(undefined);
      setSaved(true);
    } catch (err) {
      if (err instanceof ApiProblem && CONFLICT.has(err.code ?? '')) await showTheirs();
      throw err;
    }
  });
  // Someone else saved since `base`: show their version, and base the next save on it (the draft stays).
  const showTheirs = async () => {
    const current = await call(api.GET('/api/knowledge/{kind}/{id}', { params: { path: { kind, id: item.id } } }));
    setTheirs(current);
    setRaw(JSON.stringify({ base: current.version, fields }));
  };
  const remove = useAction(async () => {
    await call(api.DELETE('/api/knowledge/{kind}/{id}', { params: { path: { kind, id: item.id } }, headers: { 'If-Match': `"${item.version}"` } }));
    setRaw('');
    onDeleted();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  const errors = { ...(save.problem?.fields ?? {}), ...localErrors };
  const other = otherMessages(save.problem?.fields ?? {}, fields);
  return (
    <section aria-labelledby="item-title">
      <h1 id="item-title">{itemTitle(item)}</h1>
      <p className="muted">
        The {KIND_SINGULAR[kind]} <code>{item.path}</code> in {where}.
      </p>
      {item.error && (
        <div className="alert error" role="alert">
          This file does not read as a {KIND_SINGULAR[kind]}: {item.error}
        </div>
      )}
      {theirs && <TheirVersion theirs={theirs} />}
      {kept && !theirs && (
        <Note tone="info">
          Your unsaved changes are kept.{' '}
          <button type="button" className="link" onClick={() => setRaw('')}>
            Discard them
          </button>
        </Note>
      )}
      <form onSubmit={submit} noValidate aria-label={`Edit ${KIND_SINGULAR[kind]} ${itemTitle(item)}`}>
        {!theirs && <FormAlert problem={save.problem} />}
        {other.length > 0 && (
          <ul className="alert error" aria-label="Other problems">
            {other.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        {saved && <Note>Saved.</Note>}
        <ItemFields drafts={fields} onChange={setFields} errors={errors} />
        <div className="actions">
          <button type="submit" className="primary">
            {theirs ? 'Save mine over theirs' : 'Save'}
          </button>
          <ConfirmButton label={`Delete ${KIND_SINGULAR[kind]} ${itemTitle(item)}`} question={`Delete this ${KIND_SINGULAR[kind]} from ${where}?`} onConfirm={() => remove.run()}>
            Delete
          </ConfirmButton>
        </div>
        <FormAlert problem={remove.problem} />
      </form>
    </section>
  );
}

/** Someone else's saved version, shown above the person's kept draft. */
function TheirVersion({ theirs }: { theirs: Item }) {
  return (
    <div className="alert error" role="alert">
      <p>
        Someone else changed this item since you opened it. Your changes are kept below; their version is shown here. Save again to replace
        their version with yours, or copy what you need from theirs first.
      </p>
      <pre className="their-version" aria-label="Their version">
        {theirs.yaml}
      </pre>
    </div>
  );
}
