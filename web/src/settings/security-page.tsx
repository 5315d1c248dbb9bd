// /settings/security: two-factor authentication: turn it on (QR code, first code, recovery codes
// shown once), get new recovery codes, or turn it off (both with a code, plus the password if any).
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useSession } from '../session/session.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { RecoveryCodes } from '../ui/recovery-codes.tsx';
import { useLoad } from '../ui/use-load.ts';
import { MfaEnroll } from './mfa-enroll.tsx';
import { MfaFactorsForm } from './mfa-factors-form.tsx';

type Status = ResponseOf<'/api/auth/mfa/status', 'get'>;

export function SecurityPage() {
  useDocumentTitle('Two-factor authentication');
  const status = useLoad((signal) => call(api.GET('/api/auth/mfa/status', { signal })));
  const { refresh } = useSession();
  const [codes, setCodes] = useState<{ codes: string[]; intro: string } | undefined>();
  const [note, setNote] = useState<string | undefined>();
  const changed = async (message?: string) => {
    setNote(message);
    await status.reload();
    await refresh();
  };
  return (
    <>
      <h1>Two-factor authentication</h1>
      <FormAlert problem={status.problem} />
      {note && <Note>{note}</Note>}
      {codes ? (
        <section aria-label="Recovery codes">
          <RecoveryCodes codes={codes.codes} intro={codes.intro} onDone={() => setCodes(undefined)} />
        </section>
      ) : (
        status.data && <MfaState status={status.data} onCodes={(c, intro) => setCodes({ codes: c, intro })} onChanged={changed} />
      )}
    </>
  );
}

interface MfaStateProps {
  status: Status;
  onCodes: (codes: string[], intro: string) => void;
  onChanged: (message?: string) => Promise<void>;
}

function MfaState({ status, onCodes, onChanged }: MfaStateProps) {
  if (!status.enabled)
    return (
      <>
        <p>
          Two-factor authentication is <strong>off</strong>. With it on, signing in also asks for a code from an authenticator app.
          {status.enforced && ' Your organization requires it.'}
        </p>
        <MfaEnroll
          onEnabled={(codes) => {
            onCodes(codes, 'Two-factor authentication is on.');
            void onChanged();
          }}
        />
      </>
    );
  return (
    <>
      <p>
        Two-factor authentication is <strong>on</strong>. {status.recovery_codes_remaining} recovery code{status.recovery_codes_remaining === 1 ? '' : 's'} left.
      </p>
      <MfaFactorsForm
        title="New recovery codes"
        intro="The current recovery codes stop working."
        submit="Make new recovery codes"
        hasPassword={status.has_password}
        send={(body) => call(api.POST('/api/auth/mfa/recovery_codes/regenerate', { body }))}
        onDone={(r) => {
          onCodes(r.recovery_codes, 'Your new recovery codes are ready.');
          void onChanged();
        }}
      />
      <MfaFactorsForm
        title="Turn off two-factor authentication"
        intro={status.enforced ? 'Your organization requires it: you will be asked to set it up again at your next sign-in.' : 'Signing in will ask for your password only.'}
        submit="Turn off"
        danger
        hasPassword={status.has_password}
        send={(body) => call(api.POST('/api/auth/mfa/disable', { body }))}
        onDone={() => void onChanged('Two-factor authentication is off.')}
      />
    </>
  );
}
