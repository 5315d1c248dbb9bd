// "Save" on an answer: a dialog with a title, a description and who sees it. Regular users keep
// private questions; the organization choice is offered to admins and modelers only (the server
// refuses the others the same way).
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { useMe } from '../session/session.tsx';
import { DialogButton } from '../ui/dialog-button.tsx';
import { Field, TextAreaField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { savedPath } from './saved-paths.ts';

export function SaveQuestion({ chatId, answerUuid }: { chatId: string; answerUuid: string }) {
  return (
    <DialogButton label="Save" titleId="save-question-title">
      {(close) => <SaveForm chatId={chatId} answerUuid={answerUuid} onClose={close} />}
    </DialogButton>
  );
}

function SaveForm({ chatId, answerUuid, onClose }: { chatId: string; answerUuid: string; onClose: () => void }) {
  const me = useMe();
  const mayPublish = me.role === 'admin' || me.role === 'modeler';
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<'private' | 'organization'>('private');
  const [saved, setSaved] = useState<string | undefined>();
  const save = useAction(async () => {
    const q = await call(api.POST('/api/saved_questions', { body: { title, description, visibility, chat_id: chatId, message_uuid: answerUuid } }));
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
      <h2 id="save-question-title">Save this answer as a question</h2>
      <FormAlert problem={save.problem} />
      <Field label="Title" value={title} onChange={setTitle} required maxLength={200} error={save.fieldError('title')} />
      <TextAreaField label="Description" value={description} onChange={setDescription} maxLength={5000} error={save.fieldError('description')} />
      <fieldset className="field">
        <legend>Who sees it</legend>
        <label>
          <input type="radio" name="visibility" checked={visibility === 'private'} onChange={() => setVisibility('private')} /> Only me
        </label>
        <label>
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
