// /admin/workspaces: the organization's workspaces (each its own knowledge, chats and members, reached
// by switching in Settings), created, renamed and removed here, with the members chosen for each.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { useMembers } from './member-picker.tsx';
import { WorkspaceCard } from './workspace-card.tsx';

export function WorkspacesPage() {
  useDocumentTitle('Workspaces');
  const list = useLoad((signal) => call(api.GET('/api/admin/workspaces', { signal })));
  const members = useMembers();
  return (
    <>
      <h1>Workspaces</h1>
      <p className="muted">A workspace has its own knowledge, chats and members, chosen from the organization. Members switch into it from Settings.</p>
      <NewWorkspace onCreated={() => void list.reload()} />
      <FormAlert problem={list.problem} />
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.workspaces.length === 0 ? (
          <p>No workspaces yet.</p>
        ) : (
          <ul className="cards" aria-label="Workspaces">
            {list.data.workspaces.map((w) => (
              <WorkspaceCard key={w.workspace_id} workspace={w} members={members} onChanged={() => void list.reload()} />
            ))}
          </ul>
        ))}
    </>
  );
}

function NewWorkspace({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [created, setCreated] = useState('');
  const create = useAction(async () => {
    setCreated('');
    const w = await call(api.POST('/api/admin/workspaces', { body: { name } }));
    setCreated(`Workspace ${w.name} created; you are its admin.`);
    setName('');
    onCreated();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!create.pending) void create.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New workspace">
      <FormAlert problem={create.problem} />
      {created && <Note>{created}</Note>}
      <Field label="Name of the new workspace" value={name} onChange={setName} error={create.fieldError('name')} maxLength={100} />
      <div className="actions">
        <button type="submit" className="primary">
          Create workspace
        </button>
      </div>
    </form>
  );
}
