// Readiness: whether this process should get traffic. Liveness (/api/health) says the process
// answers; readiness also asks what it depends on (the store, the knowledge folder, Redis) and says
// no while the process drains before shutdown, so a load balancer moves traffic away first.

export type CheckState = 'ok' | 'failed';

export interface Readiness {
  ready: boolean;
  draining: boolean;
  checks: Record<string, CheckState>;
}

/** One dependency: throws (or rejects) when it is not usable. */
export type ReadinessCheck = () => unknown;

/** Runs every check at once, each bounded by `timeoutMs` (a check that hangs counts as failed). */
export async function checkReadiness(checks: Record<string, ReadinessCheck>, draining: boolean, timeoutMs = 2000): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, CheckState]> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)));
      try {
        await Promise.race([Promise.resolve().then(check), timeout]);
        return [name, 'ok'];
      } catch {
        return [name, 'failed'];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const result = Object.fromEntries(entries);
  return { ready: !draining && entries.every(([, state]) => state === 'ok'), draining, checks: result };
}
