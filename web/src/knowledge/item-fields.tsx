// An item's fields as a form: text fields as text, the others (lists, nested values) as YAML, the
// way they look in the item's file. Each field shows the server's 422 message for it (or for
// anything inside it), so a person sees which field to fix.
import { parse, stringify } from 'yaml';
import { TextAreaField } from '../ui/field.tsx';

export interface FieldDraft {
  name: string;
  /** text: the value is the text itself; yaml: the value is written as YAML. */
  type: 'text' | 'yaml';
  text: string;
}

/** The form's fields for an item's data. */
export function toDrafts(data: Record<string, unknown>): FieldDraft[] {
  return Object.entries(data).map(([name, value]) =>
    typeof value === 'string' ? { name, type: 'text', text: value } : { name, type: 'yaml', text: stringify(value).trimEnd() },
  );
}

/** The item's data from the form, or the fields whose YAML does not read. */
export function fromDrafts(drafts: FieldDraft[]): { data: Record<string, unknown> } | { errors: Record<string, string> } {
  const data: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const d of drafts) {
    if (d.type === 'text') data[d.name] = d.text;
    else if (d.text.trim() !== '') {
      try {
        data[d.name] = parse(d.text) as unknown;
      } catch (err) {
        errors[d.name] = `This is not valid YAML: ${err instanceof Error ? err.message.split('\n')[0] : 'unreadable'}`;
      }
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { data };
}

/** The server's message for a field or anything inside it (`questions.0.id` shows on `questions`). */
export function messageFor(fields: Record<string, string>, name: string): string | undefined {
  if (fields[name]) return fields[name];
  const inner = Object.keys(fields).find((key) => key.startsWith(`${name}.`));
  return inner ? `${inner.slice(name.length + 1)}: ${fields[inner]}` : undefined;
}

/** Messages about no field on the form (the item as a whole, or a field it lacks). */
export function otherMessages(fields: Record<string, string>, drafts: FieldDraft[]): string[] {
  const names = new Set(drafts.map((d) => d.name));
  return Object.entries(fields)
    .filter(([key]) => !names.has(key.split('.')[0]!))
    .map(([key, msg]) => (key === '_' ? msg : `${key}: ${msg}`));
}

interface ItemFieldsProps {
  drafts: FieldDraft[];
  onChange: (drafts: FieldDraft[]) => void;
  errors: Record<string, string>;
}

export function ItemFields({ drafts, onChange, errors }: ItemFieldsProps) {
  const set = (name: string, text: string) => onChange(drafts.map((d) => (d.name === name ? { ...d, text } : d)));
  return (
    <>
      {drafts.map((d) => (
        <TextAreaField
          key={d.name}
          label={d.name}
          value={d.text}
          onChange={(text) => set(d.name, text)}
          error={messageFor(errors, d.name)}
          hint={d.type === 'yaml' ? 'Written as YAML, as in the file.' : undefined}
          rows={Math.min(14, Math.max(d.type === 'yaml' ? 3 : 1, d.text.split('\n').length + (d.text.length > 80 ? 1 : 0)))}
          spellCheck={d.type === 'text'}
          className={d.type === 'yaml' ? 'mono' : undefined}
        />
      ))}
    </>
  );
}
