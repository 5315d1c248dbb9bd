// /mfa-recovery?token=…: shows who asked to remove two-factor authentication, from where, and
// removes it on confirmation.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { CardPage } from '../ui/card-page.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

type Info = ResponseOf<'/api/auth/mfa/recovery/info', 'get'>;

export function MfaRecoveryPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [info, setInfo] = useState<Info | undefined>();
  const [done, setDone] = useState(false);
  const load = useAction(async () => setInfo(await call(api.GET('/api/auth/mfa/recovery/info', { params: { query: { token } } }))));
  const consume = useAction(async () => {
    await call(api.POST('/api/auth/mfa/recovery/consume', { body: { token } }));
    setDone(true);
  });
  useEffect(() => {
    void load.run();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  if (done) {
    return (
      <CardPage title="Two-factor authentication removed">
        <Note>It is off, you were signed out everywhere and your API, CLI and MCP tokens and connected apps were revoked. Sign in again; you may be asked to set it up anew.</Note>
        <Link to="/login">Sign in</Link>
      </CardPage>
    );
  }
  return (
    <CardPage title="Remove two-factor authentication?">
      <FormAlert problem={load.problem ?? consume.problem} />
      {info && (
        <>
          <p>
            A request to remove two-factor authentication from <strong>{info.email}</strong> was made on {new Date(info.requested_at).toLocaleString()} from {info.ip} ({info.user_agent}).
          </p>
          <p>Confirm only if this was you.</p>
          <div className="actions">
            <button type="button" className="primary" disabled={consume.pending} onClick={() => void consume.run()}>
              Yes, remove it
            </button>
            <Link to="/login">Cancel</Link>
          </div>
        </>
      )}
    </CardPage>
  );
}
