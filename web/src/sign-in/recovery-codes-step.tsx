// The 10 recovery codes, shown once: copy, download, then continue.
import { CopyButton, downloadText } from '../ui/copy-button.tsx';

export function RecoveryCodesStep({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Sextant recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <>
      <p>Two-factor authentication is on. Keep these recovery codes somewhere safe: each works once if you lose your authenticator, and they are shown only now.</p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton text={text} label="Copy codes" />
        <button type="button" onClick={() => downloadText('sextant-recovery-codes.txt', text)}>
          Download
        </button>
        <button type="button" className="primary" onClick={onDone}>
          I saved them, continue
        </button>
      </div>
    </>
  );
}
