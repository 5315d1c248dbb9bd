// /signup: create an account; the verification mail links to /verify.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { CardPage } from '../ui/card-page.tsx';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { usePasswordHint } from './password-hint.ts';

export function SignUpPage() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState(false);
  const passwordHint = usePasswordHint();
  const register = useAction(async () => {
    await call(api.POST('/api/auth/register', { body: { name, email, password } }));
    setSent(true);
  });
  const resend = useAction(async () => call(api.POST('/api/auth/resend_verification_mail', { body: { email } })));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void register.run();
  };
  if (sent) {
    return (
      <CardPage title="Check your mail">
        <p>
          We sent a confirmation link to <strong>{email}</strong>. Open it to finish creating your account.
        </p>
        <FormAlert problem={resend.problem} />
        <div className="actions">
          <button type="button" onClick={() => void resend.run()} disabled={resend.pending}>
            Send it again
          </button>
          <Link to="/login">Back to sign in</Link>
        </div>
      </CardPage>
    );
  }
  return (
    <CardPage title="Create your account">
      <FormAlert problem={register.problem} />
      <form onSubmit={submit} noValidate>
        <Field label="Name" name="name" autoComplete="name" value={name} onChange={setName} error={register.fieldError('name')} />
        <Field label="Work email" type="email" name="email" autoComplete="email" required value={email} onChange={setEmail} error={register.fieldError('email')} />
        <Field label="Password" type="password" name="password" autoComplete="new-password" required value={password} onChange={setPassword} error={register.fieldError('password')} hint={passwordHint} />
        <div className="actions">
          <button type="submit" className="primary" disabled={register.pending}>
            Create account
          </button>
          <Link to="/login">I have an account</Link>
        </div>
      </form>
    </CardPage>
  );
}

