// Personal memories: notes the assistant keeps in mind in every chat. Add, edit, delete; a title
// left empty is made from the note.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { useDraft } from '../lib/drafts.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Field, TextAreaField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { Profile } from './profile-page.tsx';

type Memory = Profile['memories'][number];

export function MemoriesSection({ memories, onChange }: { memories: Memory[]; onChange: (memories: Memory[]) => void }) {
  return (
    <section aria-labelledby="memories-title">
      <h2 id="memories-title">Memories</h2>
      <p className="muted">Things the assistant should remember about you and your work, in every chat.</p>
      {memories.length === 0 ? (
        <p>No memory yet.</p>
      ) : (
        <ul className="cards" aria-label="Your memories">
          {memories.map((m) => (
            <MemoryItem
              key={m.memory_id}
              memory={m}
              onSaved={(saved) => onChange(memories.map((x) => (x.memory_id === saved.memory_id ? saved : x)))}
              onDeleted={() => onChange(memories.filter((x) => x.memory_id !== m.memory_id))}
            />
          ))}
        </ul>
      )}
      <NewMemory onAdded={(m) => onChange([...memories, m])} />
    </section>
  );
}

function MemoryItem({ memory, onSaved, onDeleted }: { memory: Memory; onSaved: (m: Memory) => void; onDeleted: () => void }) {
  const [editing, setEditing] = useState(false);
  const remove = useAction(async () => {
    await call(api.DELETE('/api/auth/user_memory/{memory_id}', { params: { path: { memory_id: memory.memory_id } } }));
    onDeleted();
  });
  if (editing)
    return (
      <li className="card">
        <MemoryForm
          memory={memory}
          onDone={(saved) => {
            if (saved) onSaved(saved);
            setEditing(false);
          }}
        />
      </li>
    );
  return (
    <li className="card">
      <h3>{memory.title}</h3>
      <p className="pre-wrap">{memory.content}</p>
      <div className="actions">
        <button type="button" onClick={() => setEditing(true)} aria-label={`Edit memory ${memory.title}`}>
          Edit
        </button>
        <ConfirmButton label={`Delete memory ${memory.title}`} question="Delete this memory?" onConfirm={() => remove.run()}>
          Delete
        </ConfirmButton>
      </div>
      <FormAlert problem={remove.problem} />
    </li>
  );
}

/** Edits a memory; a title the person gave stays theirs, one made from the note follows the note. */
function MemoryForm({ memory, onDone }: { memory: Memory; onDone: (saved?: Memory) => void }) {
  const [title, setTitle] = useState(memory.title_from_user ? memory.title : '');
  const [content, setContent] = useState(memory.content);
  const save = useAction(async () => {
    const body = { content, ...(title.trim() ? { title } : {}) };
    onDone(await call(api.PUT('/api/auth/user_memory/{memory_id}', { params: { path: { memory_id: memory.memory_id } }, body })));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Edit memory ${memory.title}`}>
      <FormAlert problem={save.problem} />
      <Field label="Title" value={title} onChange={setTitle} error={save.fieldError('title')} hint={memory.title_from_user ? undefined : 'Optional: left empty, it follows the note.'} />
      <TextAreaField label="Note" rows={3} value={content} onChange={setContent} error={save.fieldError('content')} autoFocus />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.pending}>
          Save memory
        </button>
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function NewMemory({ onAdded }: { onAdded: (m: Memory) => void }) {
  // Kept in local storage: a session that ends mid-way sends the person to sign in and back.
  const [title, setTitle] = useDraft('memory.title');
  const [content, setContent] = useDraft('memory.content');
  const add = useAction(async () => {
    onAdded(await call(api.POST('/api/auth/user_memory', { body: { content, ...(title.trim() ? { title } : {}) } })));
    setTitle('');
    setContent('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void add.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="new-memory-title">
      <h3 id="new-memory-title">Add a memory</h3>
      <FormAlert problem={add.problem} />
      <TextAreaField label="Note" rows={3} value={content} onChange={setContent} error={add.fieldError('content')} placeholder="For example: I report in euros; fiscal years start in April." />
      <Field label="Title" value={title} onChange={setTitle} error={add.fieldError('title')} hint="Optional: made from the note when left empty." />
      <div className="actions">
        <button type="submit" className="primary" disabled={add.pending}>
          Add memory
        </button>
      </div>
    </form>
  );
}
