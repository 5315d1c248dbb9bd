// Throwaway environments are deleted after 7 days without activity.
import type { KnowledgeDeps } from './deps.ts';
import { dropEnvironment, THROWAWAY_IDLE_MS } from './environments.ts';
import { idleThrowawayRows } from './environments-store.ts';

/** Deletes every throwaway environment idle for 7 days; returns their ids. */
export async function expireThrowawayEnvironments(deps: KnowledgeDeps): Promise<string[]> {
  const cutoff = deps.clock.now() - THROWAWAY_IDLE_MS;
  const idle = await idleThrowawayRows(deps.store, cutoff);
  const done: string[] = [];
  for (const env of idle) {
    try {
      await dropEnvironment(deps, env);
      done.push(env.id);
    } catch (err) {
      deps.log.warn({ err, environment_id: env.id }, 'could not expire a throwaway environment');
    }
  }
  if (done.length > 0) deps.log.info({ environments: done }, 'expired idle throwaway environments');
  return done;
}

/** Runs the expiry every `intervalMs` until stopped (the timer never keeps the process alive). */
export function startEnvironmentJanitor(deps: KnowledgeDeps, intervalMs = 3600_000): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    expireThrowawayEnvironments(deps).finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
