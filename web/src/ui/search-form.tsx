import { useState, type FormEvent } from 'react';
import { Field } from './field.tsx';

interface SearchFormProps {
  /** The form's accessible name (what is searched). */
  name: string;
  label: string;
  button?: string;
  /** Called with the trimmed text on submit: the lists search on the server, not as the person types. */
  onSearch(q: string): void;
}

/** A search box and its button, as the paged lists use it. */
export function SearchForm({ name, label, button = 'Search', onSearch }: SearchFormProps) {
  const [typed, setTyped] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(typed.trim());
  };
  return (
    <form role="search" aria-label={name} onSubmit={submit} className="row">
      <Field label={label} type="search" value={typed} onChange={setTyped} maxLength={200} />
      <div className="actions">
        <button type="submit">{button}</button>
      </div>
    </form>
  );
}
