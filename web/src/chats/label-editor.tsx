// A chat's labels: each with a button that removes it, and a field that adds one. The server's
// limits (length, count) come back as messages beside the field; what was typed stays.
import { useId, useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { ChatSummary } from './chat-list.tsx';

export function LabelEditor({ chat, onChange }: { chat: ChatSummary; onChange: (chat: ChatSummary) => void }) {
  const [label, setLabel] = useState('');
  const change = useAction(async (text: string, remove: boolean) => {
    onChange(await call(api.POST('/api/add_label_to_chat', { body: { chat_id: chat.chat_id, label: text, remove } })));
    return true;
  });
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (await change.run(label, false)) setLabel('');
  };
  const error = change.fieldError('label');
  const inputId = useId();
  return (
    <div className="labels">
      {chat.labels.length > 0 && (
        <ul aria-label="Labels" className="chips">
          {chat.labels.map((l) => (
            <li key={l}>
              {l}
              <button type="button" className="chip-remove" aria-label={`Remove label ${l}`} onClick={() => void change.run(l, true)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={(e) => void add(e)} noValidate>
        <label htmlFor={inputId} className="visually-hidden">
          New label
        </label>
        <input id={inputId} value={label} onChange={(e) => setLabel(e.target.value)} placeholder="Add a label" aria-invalid={error ? true : undefined} aria-describedby={error ? `${inputId}-error` : undefined} />
        <button type="submit" disabled={change.pending || !label.trim()}>
          Add label
        </button>
      </form>
      {error && (
        <p className="field-error" id={`${inputId}-error`}>
          {error}
        </p>
      )}
      {!error && <FormAlert problem={change.problem} />}
    </div>
  );
}
