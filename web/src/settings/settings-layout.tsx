// /settings: the person's own account, one page per subject, with the list of subjects beside it.
import { NavLink, Outlet } from 'react-router';

const SECTIONS = [
  { to: '/settings/profile', label: 'Profile and memories' },
  { to: '/settings/tokens', label: 'Tokens and connected apps' },
  { to: '/settings/security', label: 'Two-factor authentication' },
  { to: '/settings/workspaces', label: 'Workspaces' },
  { to: '/settings/disclaimers', label: 'Dismissed notes' },
];

export function SettingsLayout() {
  return (
    <div className="settings">
      <nav aria-label="Settings" className="settings-nav">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.to}>
              <NavLink to={s.to}>{s.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-body">
        <Outlet />
      </div>
    </div>
  );
}
