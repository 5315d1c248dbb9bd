// Proves the person holds the second factor (a code from the app or a recovery code, plus the
// password when the account has one) before a change to two-factor authentication.
import { useId, useState, type FormEvent } from 'react';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

interface MfaFactorsFormProps<R> {
  title: string;
  intro: string;
  submit: string;
  danger?: boolean;
  hasPassword: boolean;
  send: (body: { code: string; password?: string }) => Promise<R>;
  onDone: (result: R) => void;
}

export function MfaFactorsForm<R>({ title, intro, submit, danger = false, hasPassword, send, onDone }: MfaFactorsFormProps<R>) {
  const id = useId();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(async () => {
    const result = await send({ code: code.replace(/\s+/g, ''), ...(hasPassword ? { password } : {}) });
    setCode('');
    setPassword('');
    onDone(result);
  });
  const submitForm = (e: FormEvent) => {
    e.preventDefault();
    void action.run();
  };
  // A wrong code or password is the server's 400 with a stable code: shown at its field.
  const problem = action.problem;
  const codeError = action.fieldError('code') ?? (problem?.code === 'INVALID_MFA_CODE' ? problem.message : undefined);
  const passwordError = action.fieldError('password') ?? (problem?.code === 'INVALID_PASSWORD' ? problem.message : undefined);
  const plain = problem && !problem.fields['code'] && !problem.fields['password'] && problem.code !== 'INVALID_MFA_CODE' && problem.code !== 'INVALID_PASSWORD' ? problem : undefined;
  return (
    <form onSubmit={submitForm} noValidate aria-labelledby={id} className="settings-form">
      <h2 id={id}>{title}</h2>
      <p className="muted">{intro}</p>
      <FormAlert problem={plain} />
      {hasPassword && <Field label="Password" type="password" autoComplete="current-password" value={password} onChange={setPassword} error={passwordError} />}
      <Field label="Code from the app, or a recovery code" autoComplete="one-time-code" value={code} onChange={setCode} error={codeError} />
      <div className="actions">
        <button type="submit" className={danger ? 'danger' : 'primary'} disabled={action.pending}>
          {submit}
        </button>
      </div>
    </form>
  );
}
