// /admin/invitations: invite an address with a role, and the pending invitations (resend with a new
// link, revoke).
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { ROLE_OPTIONS, type Role } from './roles.ts';

export function InvitationsPage() {
  useDocumentTitle('Invitations');
  const list = useLoad((signal) => call(api.GET('/api/admin/invitations', { signal })));
  const [done, setDone] = useState('');
  const resend = useAction(async (id: string, email: string) => {
    const inv = await call(api.POST('/api/admin/invitations/{invitation_id}/resend', { params: { path: { invitation_id: id } } }));
    list.update((d) => ({ invitations: d.invitations.map((i) => (i.invitation_id === id ? inv : i)) }));
    setDone(`Invitation sent again to ${email}.`);
  });
  const revoke = useAction(async (id: string, email: string) => {
    await call(api.DELETE('/api/admin/invitations/{invitation_id}', { params: { path: { invitation_id: id } } }));
    list.update((d) => ({ invitations: d.invitations.filter((i) => i.invitation_id !== id) }));
    setDone(`Invitation of ${email} revoked.`);
  });
  return (
    <>
      <h1>Invitations</h1>
      <InviteForm onInvited={() => void list.reload()} />
      <section aria-labelledby="pending-title">
        <h2 id="pending-title">Pending invitations</h2>
        <FormAlert problem={list.problem ?? resend.problem ?? revoke.problem} />
        {done && <Note>{done}</Note>}
        {list.loading && !list.data && <p role="status">Loading…</p>}
        {list.data &&
          (list.data.invitations.length === 0 ? (
            <p>No invitation is waiting.</p>
          ) : (
            <ul className="cards" aria-label="Pending invitations">
              {list.data.invitations.map((inv) => (
                <li key={inv.invitation_id} className="card row">
                  <span>{inv.email}</span>
                  <span className="tag">{inv.role}</span>
                  <span className="muted">expires {new Date(inv.expires_at).toLocaleDateString()}</span>
                  <span className="spacer" />
                  <button type="button" aria-label={`Resend invitation to ${inv.email}`} onClick={() => void resend.run(inv.invitation_id, inv.email)}>
                    Resend
                  </button>
                  <ConfirmButton label={`Revoke invitation to ${inv.email}`} question="Revoke this invitation? Its link stops working." onConfirm={() => revoke.run(inv.invitation_id, inv.email)}>
                    Revoke
                  </ConfirmButton>
                </li>
              ))}
            </ul>
          ))}
      </section>
    </>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [sent, setSent] = useState('');
  const invite = useAction(async () => {
    const inv = await call(api.POST('/api/admin/invitations', { body: { email, role } }));
    setEmail('');
    setSent(`Invitation sent to ${inv.email}.`);
    onInvited();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSent('');
    if (!invite.pending) void invite.run();
  };
  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form onSubmit={submit} noValidate aria-labelledby="invite-title">
        <FormAlert problem={invite.problem} />
        {sent && <Note>{sent}</Note>}
        <Field label="Email address" type="email" value={email} onChange={setEmail} error={invite.fieldError('email')} autoComplete="off" />
        <SelectField label="Role" value={role} onChange={(v) => setRole(v as Role)} options={ROLE_OPTIONS} error={invite.fieldError('role')} />
        <div className="actions">
          <button type="submit" className="primary">
            Send invitation
          </button>
        </div>
      </form>
    </section>
  );
}
