// First step: email and password, or a mailed sign-in link, or the organization's SSO.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { SignInFlow } from './sign-in-flow.ts';
import { SsoButtons } from './sso-buttons.tsx';

export function PasswordStep({ flow }: { flow: SignInFlow }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useAction(async () => flow.continueWith(await call(api.POST('/api/auth/token', { body: { email, password } })), password));
  const magic = useAction(async () => {
    await call(api.POST('/api/auth/magic_link/request', { body: { email } }));
    flow.go({ step: 'magic-sent', email });
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    magic.clear();
    void signIn.run();
  };
  const problem = signIn.problem ?? magic.problem;
  return (
    <>
      <FormAlert problem={problem} />
      <form onSubmit={submit} noValidate>
        <Field label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={setEmail} error={problem?.fields['email'] ?? problem?.fields['username']} autoFocus />
        <Field label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={setPassword} error={signIn.fieldError('password')} />
        <div className="actions">
          <button type="submit" className="primary" disabled={signIn.pending}>
            {signIn.pending ? 'Signing in…' : 'Sign in'}
          </button>
          <Link to="/reset-password">Forgot your password?</Link>
        </div>
      </form>
      <div className="divider">or</div>
      <div className="stack">
        <button
          type="button"
          disabled={magic.pending}
          onClick={() => {
            signIn.clear();
            void magic.run();
          }}
        >
          Email me a sign-in link
        </button>
        <SsoButtons email={email} next={flow.next} />
      </div>
      <p className="muted" style={{ marginTop: '1.2rem' }}>
        New here? <Link to="/signup">Create an account</Link>
      </p>
    </>
  );
}
