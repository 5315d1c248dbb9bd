// /unsubscribe?token=…: the page an unsubscribe link in a report mail opens. One click stops the mails
// to that address, without signing in (the token is signed for it). Nothing happens on load: mail
// scanners that open links must not unsubscribe anyone.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState<string | undefined>();
  const act = useAction(async () => setDone((await call(api.POST('/api/subscriptions/unsubscribe', { body: { token } }))).address));
  return (
    <main className="card-page">
      <div className="card">
        <h1>Unsubscribe</h1>
        <FormAlert problem={act.problem} />
        {done ? (
          <p role="status">{done} will receive no more mail from this subscription.</p>
        ) : (
          <>
            <p>Stop receiving this report by mail?</p>
            <button type="button" className="primary" disabled={act.pending || !token} onClick={() => void act.run()}>
              Unsubscribe
            </button>
          </>
        )}
      </div>
    </main>
  );
}
