// The frame of every signed-in page: skip link, top bar with the sections (folded behind a Menu
// button on a phone) and the account menu, and the page itself.
import { NavLink, Outlet, useNavigate } from 'react-router';
import { useMe, useSession } from '../session/session.tsx';
import { EnvironmentBar } from './environment-bar.tsx';
import { SectionNav } from './section-nav.tsx';

export function AppShell() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" className="brand" style={{ margin: 0 }} aria-label="Sextant home">
          <img src="/favicon.svg" alt="" width={22} height={22} /> Sextant
        </NavLink>
        <SectionNav />
        <span className="spacer" />
        <AccountMenu />
      </header>
      <EnvironmentBar />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

/** Who is signed in, and signing out. */
function AccountMenu() {
  const me = useMe();
  const { signOut } = useSession();
  const navigate = useNavigate();
  return (
    <div className="account">
      <span className="muted" title={me.email}>
        {me.name || me.email}
      </span>{' '}
      <button
        type="button"
        onClick={() => {
          void signOut().then(() => navigate('/login', { replace: true }));
        }}
      >
        Sign out
      </button>
    </div>
  );
}
