// The lock knowledge writes hold across processes, picked from the configuration: with a PostgreSQL
// service database every replica already shares it, so a PostgreSQL advisory lock (released by the
// server the moment a holder dies); otherwise a lock file beside each repository (knowledge/deps.ts).
import type { Config } from '../config.ts';
import { openAdvisoryLock, type SharedLock } from '../git/index.ts';

/** The shared lock for knowledge repositories (undefined: the default lock file) and how to close it. */
export async function knowledgeWriteLock(config: Config): Promise<{ shared: SharedLock | undefined; close(): Promise<void> }> {
  if (!config.databaseUrl) return { shared: undefined, close: async () => undefined };
  const lock = await openAdvisoryLock({ url: config.databaseUrl, connectTimeoutMs: config.databaseConnectTimeoutMs });
  return { shared: lock, close: () => lock.close() };
}
