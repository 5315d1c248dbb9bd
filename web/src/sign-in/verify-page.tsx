// /verify?token=…: confirms the address from the verification mail.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { CardPage } from '../ui/card-page.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

export function VerifyPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const verify = useAction(async () => {
    await call(api.POST('/api/auth/verify', { body: { token } }));
    setDone(true);
  });
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (started) return;
    setStarted(true);
    void verify.run();
  }, [started, verify]);
  return (
    <CardPage title="Confirm your email">
      {verify.pending && <p role="status">Confirming…</p>}
      {done && <Note>Your email address is confirmed.</Note>}
      <FormAlert problem={verify.problem} />
      {verify.problem && <p>Confirmation links work for 24 hours. Sign in to have a new one sent.</p>}
      <p>
        <Link to="/login">Sign in</Link>
      </p>
    </CardPage>
  );
}
