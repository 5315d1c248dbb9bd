// One conflicting file: its two versions and the choice of how to resolve it. Field by field for a
// knowledge item: each field both sides changed shows both values, and one is kept or the value edited.
import { useId } from 'react';
import { shown, type ConflictFile, type FieldConflict, type FieldPick, type FileChoice } from './conflict-resolution.ts';

interface FileResolverProps {
  file: ConflictFile;
  choice: FileChoice;
  onChange: (choice: FileChoice) => void;
}

export function FileResolver({ file, choice, onChange }: FileResolverProps) {
  const name = useId();
  const options: { keep: NonNullable<FileChoice['keep']>; label: string }[] = [
    { keep: 'environment', label: 'Keep this environment’s version' },
    { keep: 'production', label: 'Keep production’s version' },
    ...(file.fields ? [{ keep: 'fields' as const, label: 'Merge field by field' }] : []),
    { keep: 'text', label: 'Edit the merged file' },
  ];
  return (
    <fieldset className="conflict-file" aria-label={`Resolve ${file.path}`}>
      <legend>
        <code>{file.path}</code>
      </legend>
      <div className="sides">
        <Side title="This environment" text={file.environment} />
        <Side title="Production" text={file.production} />
      </div>
      {options.map((o) => (
        <label key={o.keep} className="check">
          <input type="radio" name={name} checked={choice.keep === o.keep} onChange={() => onChange({ ...choice, keep: o.keep })} /> {o.label}
        </label>
      ))}
      {choice.keep === 'fields' &&
        (file.fields ?? []).map((f) => (
          <FieldResolver key={f.name} field={f} pick={choice.fields[f.name]} onChange={(pick) => onChange({ ...choice, fields: { ...choice.fields, [f.name]: pick } })} />
        ))}
      {choice.keep === 'text' && (
        <div className="field">
          <label htmlFor={`${name}-text`}>Merged {file.path}</label>
          <textarea id={`${name}-text`} rows={12} value={choice.text} onChange={(e) => onChange({ ...choice, text: e.target.value })} />
        </div>
      )}
    </fieldset>
  );
}

function Side({ title, text }: { title: string; text: string | null }) {
  return (
    <figure>
      <figcaption>{title}</figcaption>
      {text === null ? <p className="muted">Deleted</p> : <pre tabIndex={0}>{text}</pre>}
    </figure>
  );
}

function FieldResolver({ field, pick, onChange }: { field: FieldConflict; pick: FieldPick | undefined; onChange: (pick: FieldPick) => void }) {
  const name = useId();
  if (!field.conflict || !pick) {
    return (
      <p className="field-merged">
        <strong>{field.name}</strong>: merged as {shown(field.merged)} (only one side changed it)
      </p>
    );
  }
  const picks = [
    { pick: 'environment', label: 'This environment', value: field.environment },
    { pick: 'production', label: 'Production', value: field.production },
  ] as const;
  return (
    <fieldset className="conflict-field" aria-label={`Field ${field.name}`}>
      <legend>{field.name}</legend>
      {picks.map((p) => (
        <label key={p.pick} className="check">
          <input type="radio" name={name} checked={pick.pick === p.pick} onChange={() => onChange({ ...pick, pick: p.pick })} /> {p.label}: <code>{shown(p.value)}</code>
        </label>
      ))}
      <label className="check">
        <input type="radio" name={name} checked={pick.pick === 'edit'} onChange={() => onChange({ ...pick, pick: 'edit' })} /> Edit the value
      </label>
      {pick.pick === 'edit' && (
        <div className="field">
          <label htmlFor={`${name}-edit`}>Merged {field.name}</label>
          <textarea id={`${name}-edit`} rows={4} value={pick.text} onChange={(e) => onChange({ ...pick, text: e.target.value })} />
        </div>
      )}
    </fieldset>
  );
}
