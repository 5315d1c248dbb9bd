// A labelled input with the server's message for it underneath, tied together for screen readers.
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** The server's (or the form's) message for this field. */
  error?: string | undefined;
  hint?: ReactNode;
}

export function Field({ label, value, onChange, error, hint, id, ...input }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const described = [hint ? `${inputId}-hint` : '', error ? `${inputId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {hint && <p className="field-hint" id={`${inputId}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${inputId}-error`}>{error}</p>}
    </div>
  );
}
