// Deleting a connection: first what depends on it (documented tables in production, their row
// filters, saved reports, saved questions), then the confirmation. The focus goes to that list, so a keyboard user
// reads it before the question.
import { useEffect, useRef, useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { Connection } from './connections-words.ts';

type Dependants = ResponseOf<'/api/connections/{connection_id}/dependants', 'get'>;

export function ConnectionDelete({ connection: c, onDeleted }: { connection: Connection; onDeleted: (c: Connection) => void }) {
  const [dependants, setDependants] = useState<Dependants | undefined>();
  const heading = useRef<HTMLParagraphElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const kept = useRef(false);
  const look = useAction(async () => setDependants(await call(api.GET('/api/connections/{connection_id}/dependants', { params: { path: { connection_id: c.id } } }))));
  const remove = useAction(async () => {
    await call(api.DELETE('/api/connections/{connection_id}', { params: { path: { connection_id: c.id } } }));
    onDeleted(c);
  });
  useEffect(() => {
    if (dependants) heading.current?.focus();
    else if (kept.current) {
      kept.current = false;
      opener.current?.focus();
    }
  }, [dependants]);
  const keep = () => {
    kept.current = true;
    setDependants(undefined);
  };
  if (!dependants)
    return (
      <div>
        <button ref={opener} type="button" className="danger" aria-label={`Delete ${c.name}`} onClick={() => !look.pending && void look.run()}>
          Delete…
        </button>
        <FormAlert problem={look.problem} />
      </div>
    );
  const questions = dependants.saved_questions.length + dependants.private_saved_questions;
  const nothing = dependants.tables.length === 0 && dependants.reports.length === 0 && questions === 0;
  return (
    <div role="group" aria-label={`Delete ${c.name}`}>
      <p ref={heading} tabIndex={-1}>
        {nothing ? `Nothing depends on ${c.name}.` : `What depends on ${c.name}:`}
      </p>
      {!nothing && (
        <ul aria-label={`Dependants of ${c.name}`}>
          <li>
            {dependants.tables.length} documented table{dependants.tables.length === 1 ? '' : 's'}
            {dependants.tables.length > 0 && `: ${dependants.tables.map((t) => `${t.schema}.${t.name}`).join(', ')}`}
          </li>
          <li>
            {dependants.row_filters} row-security filter{dependants.row_filters === 1 ? '' : 's'} on those tables
          </li>
          <li>
            {dependants.reports.length} saved report{dependants.reports.length === 1 ? '' : 's'}
            {dependants.reports.length > 0 && `: ${dependants.reports.map((r) => r.title).join(', ')}`}
          </li>
          <li>
            {questions} saved question{questions === 1 ? '' : 's'}
            {dependants.saved_questions.length > 0 && `: ${dependants.saved_questions.map((q) => q.title).join(', ')}`}
            {dependants.private_saved_questions > 0 && ` (${dependants.private_saved_questions} of them private)`}, with the dashboard tiles and subscriptions that run them
          </li>
        </ul>
      )}
      {!nothing && <p>They stay in the knowledge, but nothing can query them until a connection with the id {c.id} exists again.</p>}
      <FormAlert problem={remove.problem} />
      <div className="actions">
        <ConfirmButton label={`Delete ${c.name} now`} question={`Delete the connection ${c.name}?`} onConfirm={() => remove.run()}>
          Delete
        </ConfirmButton>
        <button type="button" onClick={keep}>
          Keep it
        </button>
      </div>
    </div>
  );
}
