// "Save" on an answer, or on a query of the SQL editor: a dialog with a title, a description and who
// sees it. Regular users keep private questions; the organization choice is offered to admins and
// modelers only (the server refuses the others the same way).
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { useMe } from '../session/session.tsx';
import { DialogButton } from '../ui/dialog-button.tsx';
import { Field, TextAreaField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { savedPath } from './saved-paths.ts';

/** What is saved: an answer's table (its SQL, chart and knowledge commit), or SQL on a connection with a chart. */
type Saving = { chatId: string; answerUuid: string } | { query: { connectionId: string; sql: string; chart: Record<string, unknown> | null } };

export function SaveQuestion(props: Saving & { label?: string }) {
  const { label = 'Save', ...what } = props;
  return (
    <DialogButton label={label} titleId="save-question-title">
      {(close) => <SaveForm what={what} onClose={close} />}
    </DialogButton>
  );
}

const bodyOf = (what: Saving) =>
  'query' in what ? { connection_id: what.query.connectionId, sql: what.query.sql, chart: what.query.chart } : { chat_id: what.chatId, message_uuid: what.answerUuid };

function SaveForm({ what, onClose }: { what: Saving; onClose: () => void }) {
  const me = useMe();
  const mayPublish = me.role === 'admin' || me.role === 'modeler';
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<'private' | 'organization'>('private');
  const [saved, setSaved] = useState<string | undefined>();
  const save = useAction(async () => {
    const q = await call(api.POST('/api/saved_questions', { body: { title, description, visibility, ...bodyOf(what) } }));
    setSaved(q.id);
  });
  if (saved)
    return (
      <>
        <h2 id="save-question-title">Question saved</h2>
        <p>
          <Link to={savedPath(saved)}>Open the saved question</Link>: it runs again with fresh data each time it is opened.
        </p>
        <div className="actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </>
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h2 id="save-question-title">{'query' in what ? 'Save this query as a question' : 'Save this answer as a question'}</h2>
      <FormAlert problem={save.problem} />
      <Field label="Title" value={title} onChange={setTitle} required maxLength={200} error={save.fieldError('title')} />
      <TextAreaField label="Description" value={description} onChange={setDescription} maxLength={5000} error={save.fieldError('description')} />
      <fieldset className="field">
        <legend>Who sees it</legend>
        <label className="check">
          <input type="radio" name="visibility" checked={visibility === 'private'} onChange={() => setVisibility('private')} /> Only me
        </label>
        <label className="check">
          <input type="radio" name="visibility" checked={visibility === 'organization'} disabled={!mayPublish} onChange={() => setVisibility('organization')} /> Everyone in the organization
        </label>
        {!mayPublish && <p className="field-hint">Admins and modelers publish questions to the organization.</p>}
      </fieldset>
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={save.pending}>
          Save
        </button>
      </div>
    </form>
  );
}
