// The actions on a member's account: deactivate (asks first) or reactivate, clear failed sign-ins,
// reset two-factor authentication (asks first), remove from the organization (asks first).
import { api, call } from '../api/client.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import type { Member, Run } from './roles.ts';

interface Props {
  member: Member;
  onChange: (m: Member) => void;
  onRemoved: (id: string) => void;
  run: Run;
}

export function MemberActions({ member: m, onChange, onRemoved, run }: Props) {
  const path = { params: { path: { user_id: m.user_id } } };
  const toggleActive = () =>
    run(async () => {
      const deactivate = m.status === 'active';
      onChange(await call(deactivate ? api.POST('/api/admin/members/{user_id}/deactivate', path) : api.POST('/api/admin/members/{user_id}/reactivate', path)));
      return deactivate ? `${m.email} is deactivated.` : `${m.email} can sign in again.`;
    });
  const remove = () =>
    run(async () => {
      await call(api.DELETE('/api/admin/members/{user_id}', path));
      onRemoved(m.user_id);
      return '';
    });
  const unlock = () =>
    run(async () => {
      const r = await call(api.POST('/api/admin/members/{user_id}/unlock', path));
      return r.cleared ? `Failed sign-ins cleared for ${m.email}.` : `${m.email} had no failed sign-in to clear.`;
    });
  const resetMfa = () =>
    run(async () => {
      await call(api.POST('/api/auth/admin/users/{user_id}/mfa/reset', path));
      onChange({ ...m, mfa_enabled: false });
      return `Two-factor authentication of ${m.email} removed; they are signed out everywhere and their API, CLI and MCP tokens and connected apps are revoked.`;
    });
  return (
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
        <ConfirmButton label={`Reset two-factor authentication of ${m.email}`} question="Remove their two-factor authentication, sign them out and revoke their tokens?" onConfirm={resetMfa}>
          Reset MFA
        </ConfirmButton>
      )}
      <ConfirmButton label={`Remove ${m.email}`} question="Remove from the organization? Their chats and commits stay." onConfirm={remove}>
        Remove
      </ConfirmButton>
    </div>
  );
}
