// Second step: a code from the authenticator app or a recovery code; or, with neither at hand,
// self-service recovery (confirmed by mail, admins told).
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { SignInFlow } from './sign-in-flow.ts';

export function MfaStep({ flow, mfaToken, password }: { flow: SignInFlow; mfaToken: string; password: string | undefined }) {
  const [code, setCode] = useState('');
  const [lost, setLost] = useState(false);
  const verify = useAction(async () => flow.continueWith(await call(api.POST('/api/auth/token/mfa', { body: { mfa_token: mfaToken, code: code.replace(/\s+/g, '') } }))));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void verify.run();
  };
  if (lost) return <RecoveryRequest flow={flow} mfaToken={mfaToken} password={password} onCancel={() => setLost(false)} />;
  return (
    <>
      <FormAlert problem={verify.problem} />
      <form onSubmit={submit} noValidate>
        <Field
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          inputMode="text"
          required
          autoFocus
          value={code}
          onChange={setCode}
          error={verify.fieldError('code')}
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={verify.pending}>
            {verify.pending ? 'Checking…' : 'Continue'}
          </button>
          <button type="button" className="link" onClick={() => setLost(true)}>
            Lost your authenticator and recovery codes?
          </button>
        </div>
      </form>
    </>
  );
}

function RecoveryRequest({ flow, mfaToken, password: known, onCancel }: { flow: SignInFlow; mfaToken: string; password: string | undefined; onCancel: () => void }) {
  const [password, setPassword] = useState(known ?? '');
  const request = useAction(async () => {
    await call(api.POST('/api/auth/mfa/recovery/request', { body: { mfa_token: mfaToken, ...(password ? { password } : {}) } }));
    flow.go({ step: 'recovery-requested' });
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void request.run();
      }}
      noValidate
    >
      <p>We can remove two-factor authentication from your account after you confirm by mail. Your administrators are told.</p>
      <FormAlert problem={request.problem} />
      {known === undefined && (
        <Field label="Password (if your account has one)" type="password" name="password" autoComplete="current-password" value={password} onChange={setPassword} error={request.fieldError('password')} />
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={request.pending}>
          Send the recovery mail
        </button>
        <button type="button" onClick={onCancel}>
          Back
        </button>
      </div>
    </form>
  );
}
