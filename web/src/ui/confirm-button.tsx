// A button for something that cannot be undone (revoke, delete, disconnect): the first press asks,
// the second does it. Focus moves to the question's answer and back, so the keyboard never gets lost.
import { useEffect, useRef, useState } from 'react';

interface ConfirmButtonProps {
  /** What the button says, e.g. "Revoke". */
  children: string;
  /** Accessible name when the text alone is ambiguous in a list, e.g. "Revoke token laptop". */
  label?: string;
  /** The question, e.g. "Revoke this token? Programs using it stop working." */
  question: string;
  onConfirm: () => Promise<unknown>;
  disabled?: boolean;
}

export function ConfirmButton({ children, label, question, onConfirm, disabled = false }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      opener.current?.focus();
    }
  }, [asking]);
  const cancel = () => {
    returnFocus.current = true;
    setAsking(false);
  };
  if (!asking)
    return (
      <button ref={opener} type="button" className="danger" aria-label={label} disabled={disabled} onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={question} onKeyDown={(e) => e.key === 'Escape' && cancel()}>
      <span>{question}</span>
      <button
        ref={confirm}
        type="button"
        className="danger"
        disabled={pending}
        onClick={() => {
          setPending(true);
          void onConfirm().finally(() => {
            setPending(false);
            setAsking(false);
          });
        }}
      >
        Yes, {children.toLowerCase()}
      </button>
      <button type="button" onClick={cancel}>
        Cancel
      </button>
    </span>
  );
}
