// /reset-password: ask for a reset mail; with ?token=… from that mail, choose the new password.
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { CardPage } from '../ui/card-page.tsx';
import { Field } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <NewPassword token={token} /> : <RequestReset />;
}

function RequestReset() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const request = useAction(async () => {
    await call(api.POST('/api/auth/reset_password', { body: { email } }));
    setSent(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void request.run();
  };
  return (
    <CardPage title="Reset your password">
      {sent ? (
        <Note>If {email} has an account with a password, a reset link is on its way. It works once, for an hour.</Note>
      ) : (
        <>
          <FormAlert problem={request.problem} />
          <form onSubmit={submit} noValidate>
            <Field label="Email" type="email" name="email" autoComplete="email" required autoFocus value={email} onChange={setEmail} error={request.fieldError('email')} />
            <div className="actions">
              <button type="submit" className="primary" disabled={request.pending}>
                Send reset link
              </button>
            </div>
          </form>
        </>
      )}
      <p style={{ marginTop: '1rem' }}>
        <Link to="/login">Back to sign in</Link>
      </p>
    </CardPage>
  );
}

function NewPassword({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const change = useAction(async () => {
    await call(api.POST('/api/auth/reset_password', { body: { token, new_password: password } }));
    setDone(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void change.run();
  };
  return (
    <CardPage title="Choose a new password">
      {done ? (
        <>
          <Note>Your password is changed and your other sessions are signed out.</Note>
          <Link to="/login">Sign in</Link>
        </>
      ) : (
        <>
          <FormAlert problem={change.problem} />
          <form onSubmit={submit} noValidate>
            <Field label="New password" type="password" name="new_password" autoComplete="new-password" required autoFocus value={password} onChange={setPassword} error={change.fieldError('new_password')} />
            <div className="actions">
              <button type="submit" className="primary" disabled={change.pending}>
                Change password
              </button>
            </div>
          </form>
        </>
      )}
    </CardPage>
  );
}
