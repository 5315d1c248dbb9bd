// One member on the members page: role, attributes and groups, deactivate or reactivate, remove,
// clear failed sign-ins, reset MFA. Refusals (the last admin's 409 among them) are shown plainly.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { SelectField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { AttributesEditor } from './attributes-editor.tsx';
import { ROLE_OPTIONS, type Member, type Role } from './roles.ts';

interface Props {
  member: Member;
  onChange: (m: Member) => void;
  onRemoved: (id: string) => void;
}

export function MemberCard({ member: m, onChange, onRemoved }: Props) {
  const [role, setRole] = useState<Role>(m.role);
  const [done, setDone] = useState('');
  const path = { params: { path: { user_id: m.user_id } } };
  const act = useAction(async (what: () => Promise<string>) => {
    setDone('');
    setDone(await what());
  });
  const saveRole = () =>
    act.run(async () => {
      onChange(await call(api.PUT('/api/admin/members/{user_id}/role', { ...path, body: { role } })));
      return `${m.email} is now ${role}.`;
    });
  const toggleActive = () =>
    act.run(async () => {
      const deactivate = m.status === 'active';
      onChange(await call(deactivate ? api.POST('/api/admin/members/{user_id}/deactivate', path) : api.POST('/api/admin/members/{user_id}/reactivate', path)));
      return deactivate ? `${m.email} is deactivated.` : `${m.email} can sign in again.`;
    });
  const remove = () =>
    act.run(async () => {
      await call(api.DELETE('/api/admin/members/{user_id}', path));
      onRemoved(m.user_id);
      return '';
    });
  const unlock = () =>
    act.run(async () => {
      const r = await call(api.POST('/api/admin/members/{user_id}/unlock', path));
      return r.cleared ? `Failed sign-ins cleared for ${m.email}.` : `${m.email} had no failed sign-in to clear.`;
    });
  const resetMfa = () =>
    act.run(async () => {
      await call(api.POST('/api/auth/admin/users/{user_id}/mfa/reset', path));
      onChange({ ...m, mfa_enabled: false });
      return `Two-factor authentication of ${m.email} removed; they are signed out everywhere.`;
    });
  return (
    <li className="card" aria-label={`Member ${m.email}`}>
      <h3>
        {m.name || m.email} <span className="muted">{m.email}</span>
      </h3>
      <p className="row">
        <span className="tag">{m.role}</span>
        <span className="tag">{m.status === 'active' ? 'Active' : 'Deactivated'}</span>
        <span className="tag">{m.mfa_enabled ? 'MFA on' : 'MFA off'}</span>
        <span className="muted">Last sign-in: {m.last_sign_in_at ? new Date(m.last_sign_in_at).toLocaleString() : 'never'}</span>
      </p>
      <FormAlert problem={act.problem} />
      {done && <Note>{done}</Note>}
      <div className="row">
        <SelectField label={`Role of ${m.email}`} value={role} onChange={(v) => setRole(v as Role)} options={ROLE_OPTIONS} />
        <button type="button" aria-label={`Change role of ${m.email}`} onClick={() => role !== m.role && void saveRole()}>
          Change role
        </button>
      </div>
      <AttributesEditor member={m} onSaved={onChange} />
      <div className="actions">
        {m.status === 'active' ? (
          <ConfirmButton label={`Deactivate ${m.email}`} question="Deactivate? Their sessions and tokens stop working at once." onConfirm={toggleActive}>
            Deactivate
          </ConfirmButton>
        ) : (
          <button type="button" aria-label={`Reactivate ${m.email}`} onClick={() => void toggleActive()}>
            Reactivate
          </button>
        )}
        <button type="button" aria-label={`Clear failed sign-ins of ${m.email}`} onClick={() => void unlock()}>
          Clear failed sign-ins
        </button>
        {m.mfa_enabled && (
          <ConfirmButton label={`Reset two-factor authentication of ${m.email}`} question="Remove their two-factor authentication and sign them out?" onConfirm={resetMfa}>
            Reset MFA
          </ConfirmButton>
        )}
        <ConfirmButton label={`Remove ${m.email}`} question="Remove from the organization? Their chats and commits stay." onConfirm={remove}>
          Remove
        </ConfirmButton>
      </div>
    </li>
  );
}
