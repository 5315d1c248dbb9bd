// How the invited person joins: a new account with a password, without one (sign-in links), or with
// the organization's single sign-on; an existing account of the address joins with one button.
import { useState, type FormEvent } from 'react';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import type { Action } from '../ui/use-action.ts';
import type { Invitation } from './invitation.ts';
import type { Choice } from './use-accept.ts';

type Accept = Action<[Choice], void>;

export function NewAccountChoices({ invitation: i, accept }: { invitation: Invitation; accept: Accept }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void accept.run({ method: 'password', password, name });
  };
  return (
    <>
      <FormAlert problem={accept.problem} />
      <form onSubmit={submit} noValidate>
        <Field label="Your name" name="name" autoComplete="name" value={name} onChange={setName} error={accept.fieldError('name')} autoFocus />
        <Field
          label="Choose a password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={setPassword}
          error={accept.fieldError('password')}
          hint="At least 10 characters; a long phrase is best."
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={accept.pending}>
            {accept.pending ? 'Joining…' : 'Create my account and join'}
          </button>
        </div>
      </form>
      <div className="divider">or</div>
      <div className="stack">
        <button type="button" disabled={accept.pending} onClick={() => void accept.run({ method: 'magic_link', name })}>
          Join without a password
        </button>
        <p className="muted">You then sign in with a link mailed to {i.email} each time.</p>
        {i.sso_available && (
          <button type="button" disabled={accept.pending} onClick={() => void accept.run({ method: 'sso', name })}>
            Join with the single sign-on of {i.org_name}
          </button>
        )}
      </div>
    </>
  );
}

export function ExistingAccountChoice({ invitation: i, accept, signedIn }: { invitation: Invitation; accept: Accept; signedIn: boolean }) {
  return (
    <>
      <FormAlert problem={accept.problem} />
      <p>
        {signedIn ? `You are signed in as ${i.email}.` : `You already have a Sextant account for ${i.email}.`} Joining adds {i.org_name} to it
        {signedIn ? '' : ' and signs you in: the link from your mail proves the address'}.
      </p>
      <div className="actions">
        <button type="button" className="primary" disabled={accept.pending} onClick={() => void accept.run({ method: 'magic_link' })}>
          {accept.pending ? 'Joining…' : `Join ${i.org_name}`}
        </button>
      </div>
    </>
  );
}
