// After a sign-in link was requested: follow the link, or type the 8-digit code from the mail here.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { SignInFlow } from './sign-in-flow.ts';

export function MagicCodeStep({ flow, email }: { flow: SignInFlow; email: string }) {
  const [code, setCode] = useState('');
  const consume = useAction(async () => flow.continueWith(await call(api.POST('/api/auth/magic_link/consume', { body: { email, code: code.replace(/\s+/g, '') } }))));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void consume.run();
  };
  return (
    <>
      <p>
        If <strong>{email}</strong> has an account, a sign-in link is on its way. Open it on this device, or enter the code from the mail.
      </p>
      <FormAlert problem={consume.problem} />
      <form onSubmit={submit} noValidate>
        <Field label="Code from the mail" name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus value={code} onChange={setCode} error={consume.fieldError('code')} />
        <div className="actions">
          <button type="submit" className="primary" disabled={consume.pending}>
            Sign in
          </button>
          <button type="button" onClick={() => flow.go({ step: 'first' })}>
            Back
          </button>
        </div>
      </form>
    </>
  );
}
