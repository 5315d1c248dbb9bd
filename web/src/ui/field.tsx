// Labelled inputs with the server's message for them underneath, tied together for screen readers.
import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

interface Described {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** The server's (or the form's) message for this field. */
  error?: string | undefined;
  hint?: ReactNode;
}

type FieldProps = Described & Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'>;
type TextAreaFieldProps = Described & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'>;

/** The ids and aria attributes that tie an input to its hint and error. */
function useDescribed(id: string | undefined, hint: ReactNode, error: string | undefined) {
  const auto = useId();
  const inputId = id ?? auto;
  const describedBy = [hint ? `${inputId}-hint` : '', error ? `${inputId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return { inputId, aria: { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } };
}

function Notes({ inputId, hint, error }: { inputId: string; hint: ReactNode; error: string | undefined }) {
  return (
    <>
      {hint && <p className="field-hint" id={`${inputId}-hint`}>{hint}</p>}
      {error && <p className="field-error" id={`${inputId}-error`}>{error}</p>}
    </>
  );
}

export function Field({ label, value, onChange, error, hint, id, ...input }: FieldProps) {
  const { inputId, aria } = useDescribed(id, hint, error);
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} value={value} onChange={(e) => onChange(e.target.value)} {...aria} {...input} />
      <Notes inputId={inputId} hint={hint} error={error} />
    </div>
  );
}

export function TextAreaField({ label, value, onChange, error, hint, id, ...input }: TextAreaFieldProps) {
  const { inputId, aria } = useDescribed(id, hint, error);
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <textarea id={inputId} value={value} onChange={(e) => onChange(e.target.value)} {...aria} {...input} />
      <Notes inputId={inputId} hint={hint} error={error} />
    </div>
  );
}

interface SelectFieldProps {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  error?: string | undefined;
}

export function SelectField({ label, value, onChange, options, error }: SelectFieldProps) {
  const { inputId, aria } = useDescribed(undefined, undefined, error);
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <select id={inputId} value={value} onChange={(e) => onChange(e.target.value)} {...aria}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Notes inputId={inputId} hint={undefined} error={error} />
    </div>
  );
}
