// MFA enrollment required by the organization: a QR code drawn here from the provisioning URI (the
// secret never leaves the page), the key for typing, then the first code.
import { useEffect, useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { QrCode } from './qr-code.tsx';
import type { SignInFlow } from './sign-in-flow.ts';

type Setup = ResponseOf<'/api/auth/mfa/setup', 'post'>;

export function EnrollStep({ flow, enrollmentToken }: { flow: SignInFlow; enrollmentToken: string }) {
  const headers = { Authorization: `Bearer ${enrollmentToken}` };
  const [setup, setSetup] = useState<Setup | undefined>();
  const [code, setCode] = useState('');
  const start = useAction(async () => setSetup(await call(api.POST('/api/auth/mfa/setup', { headers, body: {} }))));
  const confirm = useAction(async () => {
    const done = await call(api.POST('/api/auth/mfa/confirm', { headers, body: { code: code.replace(/\s+/g, '') } }));
    flow.go({ step: 'recovery-codes', codes: done.recovery_codes });
  });
  useEffect(() => {
    void start.run();
    // Once per enrollment token: a new setup replaces the pending secret.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enrollmentToken]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void confirm.run();
  };
  return (
    <>
      <p>Your organization requires two-factor authentication. Scan the code with your authenticator app, or type the key, then enter the code the app shows.</p>
      <FormAlert problem={start.problem ?? confirm.problem} />
      {setup && (
        <>
          <QrCode text={setup.provisioning_uri} label="QR code to add Sextant to your authenticator app" />
          <p>
            Key: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <form onSubmit={submit} noValidate>
            <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={setCode} error={confirm.fieldError('code')} />
            <div className="actions">
              <button type="submit" className="primary" disabled={confirm.pending}>
                Turn on and continue
              </button>
            </div>
          </form>
        </>
      )}
    </>
  );
}
