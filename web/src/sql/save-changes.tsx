// "Save changes" on an opened saved question: its next version with the editor's SQL, connection and
// chart (the old versions stay). Offered to whom the server lets edit it: its owner, or an admin. The
// edit names the version it was made from, so that someone else's newer version is never undone
// unseen (the server answers 409 and the page says to load it again).
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { savedPath } from '../saved/saved-paths.ts';
import { useMe } from '../session/session.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { Chart, SavedQuestion } from './editor-source.ts';

export function SaveChanges({ question, edit }: { question: SavedQuestion; edit: { connection_id: string; sql: string; chart: Chart } }) {
  const me = useMe();
  const [version, setVersion] = useState<number | undefined>();
  const save = useAction(async () => {
    const q = await call(api.PATCH('/api/saved_questions/{id}', { params: { path: { id: question.id } }, body: { ...edit, version: version ?? question.version } }));
    setVersion(q.version);
  });
  if (question.owner_id !== me.user_id && me.role !== 'admin') return null;
  return (
    <>
      <button type="button" disabled={save.pending} onClick={() => void save.run()}>
        Save changes
      </button>
      <FormAlert problem={save.problem} />
      {version !== undefined && (
        <Note>
          Saved as version {version}. <Link to={savedPath(question.id)}>Open the saved question</Link>
        </Note>
      )}
    </>
  );
}
