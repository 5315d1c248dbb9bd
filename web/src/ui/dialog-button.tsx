// A button that opens a modal dialog, mounted only while open (so its content loads afresh each
// time): Escape or the panel's own close ends it, and focus returns to the button as <dialog> does.
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function DialogButton({ label, titleId, children }: { label: string; titleId: string; children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open && !dialog.current?.open) dialog.current?.showModal();
  }, [open]);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onClose={() => setOpen(false)}>
          {children(() => dialog.current?.close())}
        </dialog>
      )}
    </>
  );
}
