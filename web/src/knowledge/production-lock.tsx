// Production read-only where the organization changes it only through environments (the server
// refuses such writes too): the pages ask once, and offer to start an environment for the change.
import { useNavigate } from 'react-router';
import { api, call } from '../api/client.ts';
import { setActiveEnvironment, useActiveEnvironment, type ActiveEnvironment } from '../api/environment.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

/** True while the person works in production and the organization changes it only through environments. */
export function useProductionLocked(): boolean {
  const env = useActiveEnvironment();
  const settings = useLoad((signal) => (env ? Promise.resolve(undefined) : call(api.GET('/api/knowledge/settings', { signal }))), env?.id ?? '');
  return !env && settings.data?.production_through_environments === true;
}

/** Starts an environment from production for `change` and works in it from now on. */
export async function startEnvironmentFor(change: string): Promise<ActiveEnvironment> {
  // Named after the change and the minute it started, so environments started this way tell apart.
  const name = `${change} ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`.slice(0, 100);
  const env = await call(api.POST('/api/environments', { body: { name, color: '#1e88e5', source_env_id: null } }));
  setActiveEnvironment(env);
  return env;
}

/** Why production cannot be edited here, and the environment that lets the person make the change. */
export function ProductionLocked({ change, backTo }: { change: string; backTo?: string }) {
  const navigate = useNavigate();
  const start = useAction(async () => {
    await startEnvironmentFor(change);
    if (backTo) void navigate(backTo);
  });
  return (
    <div className="alert info" role="note" aria-label="Production is read-only">
      <p>This organization changes production only through environments: make the change in an environment, review it and merge it.</p>
      <div className="actions">
        <button type="button" className="primary" disabled={start.pending} onClick={() => void start.run()}>
          Create an environment to change this
        </button>
      </div>
      <FormAlert problem={start.problem} />
    </div>
  );
}
