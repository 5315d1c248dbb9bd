// The coloured bar under the top bar while the person works in an environment: where their changes
// go, and the way back to production. Regular users always work on production, so a switch left in
// storage (a role changed since) is dropped.
import { useEffect } from 'react';
import { Link } from 'react-router';
import { setActiveEnvironment, useActiveEnvironment } from '../api/environment.ts';
import { useMe } from '../session/session.tsx';

export function EnvironmentBar() {
  const env = useActiveEnvironment();
  const me = useMe();
  const allowed = me.role === 'admin' || me.role === 'modeler';
  useEffect(() => {
    if (env && !allowed) setActiveEnvironment(undefined);
  }, [env, allowed]);
  if (!env || !allowed) return null;
  return (
    <div className="environment-bar" role="region" aria-label="Active environment" style={{ borderColor: env.color }}>
      <span className="swatch" style={{ background: env.color }} aria-hidden="true" />
      <span>
        Working in environment <strong>{env.name}</strong>: changes and questions use its knowledge, not production.
      </span>
      <span className="spacer" />
      <Link to={`/knowledge/environments/${encodeURIComponent(env.id)}`}>Review and merge</Link>
      <button type="button" onClick={() => setActiveEnvironment(undefined)}>
        Back to production
      </button>
    </div>
  );
}
