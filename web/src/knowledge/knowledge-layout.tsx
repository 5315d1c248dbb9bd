// /knowledge: what the assistant knows (by kind), the environments it is changed in, and the
// evaluations that check it. Admins and modelers only: the server refuses the others too, and a
// regular user who types the address gets a plain message instead of the pages.
import { NavLink, Outlet } from 'react-router';
import { useActiveEnvironment } from '../api/environment.ts';
import { useMe } from '../session/session.tsx';
import { KINDS, KIND_LABELS } from './kinds.ts';

export function KnowledgeLayout() {
  const me = useMe();
  const env = useActiveEnvironment();
  if (me.role !== 'admin' && me.role !== 'modeler')
    return (
      <div className="page-message">
        <h1>Knowledge</h1>
        <p role="alert">The knowledge pages are for admins and modelers. Ask an admin of your organization if something the assistant knows should change.</p>
      </div>
    );
  return (
    <div className="settings knowledge">
      <nav aria-label="Knowledge" className="settings-nav">
        <ul>
          <li>
            <h2>{env ? `Knowledge in ${env.name}` : 'Knowledge in production'}</h2>
          </li>
          {KINDS.map((kind) => (
            <li key={kind}>
              <NavLink to={`/knowledge/items/${kind}`}>{KIND_LABELS[kind]}</NavLink>
            </li>
          ))}
          <li>
            <h2>Changes</h2>
          </li>
          <li>
            <NavLink to="/knowledge/environments">Environments</NavLink>
          </li>
          <li>
            <NavLink to="/knowledge/evaluations">Evaluation runs</NavLink>
          </li>
          <li>
            <NavLink to="/knowledge/import/dbt">Import from dbt</NavLink>
          </li>
        </ul>
      </nav>
      <div className="settings-body">
        <Outlet />
      </div>
    </div>
  );
}
