// The sections of the top bar. On a phone they fold behind a Menu button (a disclosure: the button
// says whether it is open, Escape closes it and gives the focus back, a followed link closes it).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useMe } from '../session/session.tsx';
import { visibleNav } from './nav.ts';

export function SectionNav() {
  const me = useMe();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="sections" onKeyDown={onKeyDown}>
      <button ref={button} type="button" className="menu-toggle" aria-expanded={open} aria-controls="section-nav" onClick={() => setOpen((o) => !o)}>
        Menu
      </button>
      <nav id="section-nav" aria-label="Sections" className={open ? 'open' : undefined}>
        <ul>
          {visibleNav(me).map((entry) => (
            <li key={entry.to}>
              <NavLink to={entry.to} end={entry.to === '/'}>
                {entry.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
