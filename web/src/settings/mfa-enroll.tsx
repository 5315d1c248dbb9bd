// Turning two-factor authentication on from Settings: a new key as a QR code (drawn here; the key
// never leaves the page) and as text, then the first code from the app.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { QrCode } from '../ui/qr-code.tsx';
import { useAction } from '../ui/use-action.ts';

type Setup = ResponseOf<'/api/auth/mfa/setup', 'post'>;

export function MfaEnroll({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const [setup, setSetup] = useState<Setup | undefined>();
  const [code, setCode] = useState('');
  const start = useAction(async () => setSetup(await call(api.POST('/api/auth/mfa/setup', { body: {} }))));
  const confirm = useAction(async () => {
    const done = await call(api.POST('/api/auth/mfa/confirm', { body: { code: code.replace(/\s+/g, '') } }));
    onEnabled(done.recovery_codes);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void confirm.run();
  };
  const codeError = confirm.fieldError('code') ?? (confirm.problem?.code === 'INVALID_MFA_CODE' ? confirm.problem.message : undefined);
  if (!setup)
    return (
      <>
        <FormAlert problem={start.problem} />
        <button type="button" className="primary" disabled={start.pending} onClick={() => void start.run()}>
          Set up two-factor authentication
        </button>
      </>
    );
  return (
    <section aria-label="Set up two-factor authentication">
      <p>Scan the code with your authenticator app, or type the key, then enter the code the app shows.</p>
      <QrCode text={setup.provisioning_uri} label="QR code to add Sextant to your authenticator app" />
      <p>
        Key: <code data-testid="totp-secret">{setup.secret}</code>
      </p>
      <form onSubmit={submit} noValidate>
        <FormAlert problem={codeError ? undefined : confirm.problem} />
        <Field label="Code from the app" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={setCode} error={codeError} autoFocus />
        <div className="actions">
          <button type="submit" className="primary" disabled={confirm.pending}>
            Turn on
          </button>
        </div>
      </form>
    </section>
  );
}
