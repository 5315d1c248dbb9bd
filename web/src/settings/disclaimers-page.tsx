// /settings/disclaimers: the notes the person dismissed, each of which can be shown again.
import { api, call } from '../api/client.ts';
import { DISCLAIMERS, disclaimerHash } from '../lib/disclaimers.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

export function DisclaimersPage() {
  useDocumentTitle('Dismissed notes');
  const dismissed = useLoad((signal) => call(api.GET('/api/auth/get_dismissed_disclaimers', { signal })));
  const restore = useAction(async (hash: string) => {
    await call(api.POST('/api/auth/restore_disclaimer', { body: { disclaimer_hash: hash } }));
    dismissed.update((d) => Object.fromEntries(Object.entries(d).filter(([h]) => h !== hash)) as typeof d);
  });
  const shown = DISCLAIMERS.filter((d) => dismissed.data?.[disclaimerHash(d)]);
  return (
    <>
      <h1>Dismissed notes</h1>
      <FormAlert problem={dismissed.problem ?? restore.problem} />
      {dismissed.data && shown.length === 0 && <p>You have not dismissed any note.</p>}
      {shown.length > 0 && (
        <ul className="cards" aria-label="Dismissed notes">
          {shown.map((d) => (
            <li key={disclaimerHash(d)} className="card">
              <p>{d.text}</p>
              <p className="muted">Shown on: {d.where}</p>
              <button type="button" disabled={restore.pending} onClick={() => void restore.run(disclaimerHash(d))}>
                Show it again
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
