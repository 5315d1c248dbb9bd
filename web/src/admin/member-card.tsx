// One member on the members page: who they are, their role and state on one line, and under
// "Manage" their role (and a modeler's merge permission), attributes and groups, then the actions on
// the account (member-actions.tsx). Folded, a page of 25 members reads as a list, not 25 forms.
// Refusals, the last admin's 409 among them, are shown plainly on the card, outside the fold.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { SelectField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { AttributesEditor } from './attributes-editor.tsx';
import { MemberActions } from './member-actions.tsx';
import { ROLE_OPTIONS, type Member, type Role, type Run } from './roles.ts';

interface Props {
  member: Member;
  onChange: (m: Member) => void;
  onRemoved: (id: string) => void;
}

export function MemberCard({ member: m, onChange, onRemoved }: Props) {
  const [done, setDone] = useState('');
  // Every action on the card reports here: what it did, or the server's refusal.
  const act = useAction(async (what: () => Promise<string>) => {
    setDone('');
    setDone(await what());
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
      <details className="manage">
        <summary aria-label={`Manage ${m.email}`}>Manage</summary>
        <RoleEditor member={m} onChange={onChange} run={act.run} />
        <AttributesEditor member={m} onSaved={onChange} />
        <MemberActions member={m} onChange={onChange} onRemoved={onRemoved} run={act.run} />
      </details>
    </li>
  );
}

function RoleEditor({ member: m, onChange, run }: { member: Member; onChange: (m: Member) => void; run: Run }) {
  const [role, setRole] = useState<Role>(m.role);
  const [canMerge, setCanMerge] = useState(m.can_merge);
  const changed = role !== m.role || (role === 'modeler' && canMerge !== m.can_merge);
  const save = () =>
    run(async () => {
      const body = { role, ...(role === 'modeler' ? { can_merge: canMerge } : {}) };
      onChange(await call(api.PUT('/api/admin/members/{user_id}/role', { params: { path: { user_id: m.user_id } }, body })));
      return `${m.email} is now ${role}${role === 'modeler' ? (canMerge ? ' and may merge into production' : ' without the merge permission') : ''}.`;
    });
  return (
    <div className="row">
      <SelectField label={`Role of ${m.email}`} value={role} onChange={(v) => setRole(v as Role)} options={ROLE_OPTIONS} />
      {role === 'modeler' && (
        <label className="check">
          <input type="checkbox" checked={canMerge} onChange={(e) => setCanMerge(e.target.checked)} /> May merge into production
        </label>
      )}
      <button type="button" aria-label={`Change role of ${m.email}`} onClick={() => changed && void save()}>
        Change role
      </button>
    </div>
  );
}
