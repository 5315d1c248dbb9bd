// A page with its list of subjects beside it (settings, admin): the links, then the chosen subject.
import { NavLink, Outlet } from 'react-router';

export interface Section {
  to: string;
  label: string;
}

export function SectionLayout({ label, sections, className = 'settings' }: { label: string; sections: Section[]; className?: string }) {
  return (
    <div className={className}>
      <nav aria-label={label} className="settings-nav">
        <ul>
          {sections.map((s) => (
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
