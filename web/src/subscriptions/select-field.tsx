// A labelled <select>. The label points at it (htmlFor) rather than wrapping it: a wrapping label
// would give the select a name made of every option's text.
import { useId, type ReactNode } from 'react';

export function SelectField<V extends string>({ label, value, onChange, children }: { label: string; value: V; onChange: (v: V) => void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as V)}>
        {children}
      </select>
    </div>
  );
}
