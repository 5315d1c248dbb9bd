// One workspace on the workspaces page: its name to change, its members with their roles, a member
// of the organization to add, and its removal (asked twice: its chats go, sessions in it end at once).
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { MemberPicker, type Members } from './member-picker.tsx';
import { ROLE_OPTIONS, type Role } from './roles.ts';

type Workspace = ResponseOf<'/api/admin/workspaces', 'get'>['workspaces'][number];

export function WorkspaceCard({ workspace: w, members, onChanged }: { workspace: Workspace; members: Members; onChanged: () => void }) {
  const path = { workspace_id: w.workspace_id };
  const inside = useLoad((signal) => call(api.GET('/api/admin/workspaces/{workspace_id}/members', { params: { path }, signal })), `${w.workspace_id}:${w.member_count}`);
  const [note, setNote] = useState('');
  const remove = useAction(async (userId: string) => {
    await call(api.DELETE('/api/admin/workspaces/{workspace_id}/members/{user_id}', { params: { path: { ...path, user_id: userId } } }));
    setNote(`${members.label(userId)} was taken out of ${w.name}.`);
    onChanged();
  });
  const drop = useAction(async () => {
    await call(api.DELETE('/api/admin/workspaces/{workspace_id}', { params: { path, query: { confirm: 'true' } } }));
    onChanged();
  });
  return (
    <li className="card" aria-label={`Workspace ${w.name}`}>
      <h2>{w.name}</h2>
      <p className="muted">
        {w.member_count} member{w.member_count === 1 ? '' : 's'}
      </p>
      {note && <Note>{note}</Note>}
      <FormAlert problem={inside.problem ?? remove.problem ?? drop.problem} />
      {inside.data && (
        <ul aria-label={`Members of ${w.name}`}>
          {inside.data.members.map((m) => (
            <li key={m.user_id}>
              {m.name || m.email} ({m.email}), {m.role}{' '}
              <ConfirmButton label={`Take out ${m.email} from ${w.name}`} question={`Take ${m.email} out of ${w.name}?`} onConfirm={() => remove.run(m.user_id)}>
                Take out
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      <AddMember workspace={w} members={members} onAdded={onChanged} />
      <Rename workspace={w} onRenamed={onChanged} />
      <div className="actions">
        <ConfirmButton label={`Remove workspace ${w.name}`} question={`Remove ${w.name}? Its chats go with it, and its members' sessions there end now.`} onConfirm={() => drop.run()}>
          Remove workspace
        </ConfirmButton>
      </div>
    </li>
  );
}

function AddMember({ workspace: w, members, onAdded }: { workspace: Workspace; members: Members; onAdded: () => void }) {
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<Role>('user');
  const add = useAction(async () => {
    await call(api.PUT('/api/admin/workspaces/{workspace_id}/members/{user_id}', { params: { path: { workspace_id: w.workspace_id, user_id: userId } }, body: { role } }));
    setUserId('');
    onAdded();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (userId && !add.pending) void add.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Add a member to ${w.name}`} className="row">
      <FormAlert problem={add.problem} />
      <MemberPicker label={`Member to add to ${w.name}`} members={members} value={userId} onChange={setUserId} none="Choose a member" />
      <SelectField label={`Role in ${w.name}`} value={role} onChange={(v) => setRole(v as Role)} options={ROLE_OPTIONS} error={add.fieldError('role')} />
      <div className="actions">
        <button type="submit" disabled={!userId}>
          Add to {w.name}
        </button>
      </div>
    </form>
  );
}

function Rename({ workspace: w, onRenamed }: { workspace: Workspace; onRenamed: () => void }) {
  const [name, setName] = useState(w.name);
  const rename = useAction(async () => {
    await call(api.PATCH('/api/admin/workspaces/{workspace_id}', { params: { path: { workspace_id: w.workspace_id } }, body: { name } }));
    onRenamed();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!rename.pending) void rename.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Rename ${w.name}`} className="row">
      <FormAlert problem={rename.problem} />
      <Field label={`New name for ${w.name}`} value={name} onChange={setName} error={rename.fieldError('name')} maxLength={100} />
      <div className="actions">
        <button type="submit">Rename</button>
      </div>
    </form>
  );
}
