// The app's sections in the top bar. A section appears once its pages are built (`built`), and
// only for the roles it serves; the server refuses the same people, this only keeps the bar honest.
import type { Me } from '../session/session.tsx';

export interface NavEntry {
  to: string;
  label: string;
  /** Roles that see the entry; all signed-in people when absent. */
  roles?: Me['role'][];
  built: boolean;
}

export const NAV: NavEntry[] = [
  // The chats are the history beside the Ask pages, not a section of their own.
  { to: '/', label: 'Ask', built: true },
  { to: '/saved', label: 'Saved', built: true },
  { to: '/dashboards', label: 'Dashboards', built: true },
  { to: '/sql', label: 'SQL', built: true },
  { to: '/subscriptions', label: 'Subscriptions', built: true },
  { to: '/knowledge', label: 'Knowledge', roles: ['admin', 'modeler'], built: true },
  { to: '/admin', label: 'Admin', roles: ['admin'], built: true },
  { to: '/settings', label: 'Settings', built: true },
];

/** The entries a person sees. */
export function visibleNav(me: Me): NavEntry[] {
  return NAV.filter((e) => e.built && (!e.roles || e.roles.includes(me.role)));
}
