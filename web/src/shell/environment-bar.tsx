// The coloured bar under the top bar while the person works in an environment: where their changes
// go, and the way back to production. Regular users always work on production, so a switch left in
// storage (a role changed since) is dropped; so is an environment deleted meanwhile (every request
// naming it would fail), and a renamed one is shown by its new name.
import { useEffect } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { setActiveEnvironment, useActiveEnvironment, type ActiveEnvironment } from '../api/environment.ts';
import { ApiProblem } from '../api/problem.ts';
import { useMe } from '../session/session.tsx';

export function EnvironmentBar() {
  const env = useActiveEnvironment();
  const me = useMe();
  const allowed = me.role === 'admin' || me.role === 'modeler';
  useEffect(() => {
    if (env && !allowed) setActiveEnvironment(undefined);
  }, [env, allowed]);
  useEffect(() => (env && allowed ? checkStillThere(env) : undefined), [env?.id, allowed]); // eslint-disable-line react-hooks/exhaustive-deps
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

/** Reads the environment once: gone (404) switches back to production; otherwise its current name and colour. */
function checkStillThere(env: ActiveEnvironment): () => void {
  const abort = new AbortController();
  call(api.GET('/api/environments/{id}', { params: { path: { id: env.id } }, signal: abort.signal }))
    .then((now) => {
      if (now.name !== env.name || now.color !== env.color) setActiveEnvironment(now);
    })
    .catch((err: unknown) => {
      if (err instanceof ApiProblem && err.status === 404) setActiveEnvironment(undefined);
    });
  return () => abort.abort();
}
