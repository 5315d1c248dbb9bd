// A labelled file input with its hint and the server's message underneath, tied together for screen
// readers like the other fields (a file input cannot be controlled, so it reports the chosen file).
import { useId, type ReactNode } from 'react';

interface FileFieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  onChange: (file: File | undefined) => void;
  required?: boolean;
  accept?: string;
}

export function FileField({ label, hint, error, onChange, required = false, accept = '.json,application/json' }: FileFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        accept={accept}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.files?.[0])}
      />
      {hint && <p className="field-hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}
