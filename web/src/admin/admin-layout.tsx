// /admin: running the organization (members, invitations, settings, workspaces, SSO, audit log, usage and
// credit limits, warehouse connections, row security). Admins only: the server refuses the others too, and
// anyone else who types the address gets a plain message instead of the pages.
import { SectionLayout } from '../ui/section-layout.tsx';
import { useMe } from '../session/session.tsx';

const SECTIONS = [
  { to: '/admin/members', label: 'Members' },
  { to: '/admin/invitations', label: 'Invitations' },
  { to: '/admin/organization', label: 'Organization settings' },
  { to: '/admin/workspaces', label: 'Workspaces' },
  { to: '/admin/sso', label: 'Single sign-on' },
  { to: '/admin/audit', label: 'Audit log' },
  { to: '/admin/usage', label: 'Usage and credit limits' },
  { to: '/admin/connections', label: 'Connections' },
  { to: '/admin/row-security', label: 'Row security' },
];

export function AdminLayout() {
  const me = useMe();
  if (me.role !== 'admin')
    return (
      <div className="page-message">
        <h1>Admin</h1>
        <p role="alert">The admin pages are for admins of the organization. Ask one of them if something about members or settings should change.</p>
      </div>
    );
  return <SectionLayout label="Admin" sections={SECTIONS} className="settings admin" />;
}
