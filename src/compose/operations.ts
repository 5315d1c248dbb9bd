// Operations of one process: metrics, tracing when configured, readiness over the store, the knowledge folder and Redis, and
// the Redis connection itself when SEXTANT_REDIS_URL is set (the rate-limit counters move there, and the message bus
// replicas share: run events, stop and feedback, credential changes).
import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRuns } from '../agent/index.ts';
import { shareRateLimits } from '../auth/credentials/rate-limit.ts';
import { shareCredentialChanges } from '../auth/credentials/shared-credential-changes.ts';
import type { Config } from '../config.ts';
import type { QueryProcessPool } from '../data/index.ts';
import { countPendingQuestions } from '../evaluations/index.ts';
import { pendingMailCount } from '../mail/index.ts';
import { checkReadiness, createMetrics, startTracing, type Ops, type ReadinessCheck } from '../ops/index.ts';
import type { ServiceStore } from '../store/index.ts';
import { openRedis, type Redis } from '../store/open-redis.ts';
import { memoryBus, openRedisBus, type MessageBus } from '../ops/bus/index.ts';

export interface Operations extends Ops {
  /** Set when SEXTANT_REDIS_URL is. */
  redis: Redis | undefined;
  /** What replicas tell each other live: on Redis when configured, else this process's memory. */
  bus: MessageBus;
  /** Told of every governed warehouse query: metrics and a trace span. */
  observeQuery(engine: string, status: string, seconds: number): void;
  /** Told of every finished agent run: metrics and a trace span. */
  observeRun(runId: string, status: string, seconds: number): void;
  close(): Promise<void>;
}

/** Opens Redis when configured (a start fails loudly when it is unreachable) and builds metrics and readiness. */
export async function openOperations({ config, store, draining }: { config: Config; store: ServiceStore; draining: AbortSignal }): Promise<Operations> {
  const redis = config.ops.redisUrl ? await openRedis(config.ops.redisUrl) : undefined;
  // Replicas must see each other's failed attempts: the counters move to Redis.
  if (redis) shareRateLimits(store.executor, redis, config.ops.redisPrefix);
  const bus = redis ? await openRedisBus(redis, config.ops.redisPrefix) : memoryBus();
  const credentialChanges = await shareCredentials(config, store, redis ? bus : undefined);
  const knowledgeDir = join(config.dataDir, 'knowledge');
  const checks: Record<string, ReadinessCheck> = {
    store: () => store.ping(),
    // Repositories are read and written there; a volume gone read-only or unmounted fails this.
    knowledge: () => accessSync(existsSync(knowledgeDir) ? knowledgeDir : config.dataDir, constants.R_OK | constants.W_OK),
    ...(redis ? { redis: () => redis.ping() } : {}),
  };
  const metrics = createMetrics();
  if (config.ops.metrics) store.observeTransactions(metrics.observeStoreTransaction);
  const tracing = config.ops.otelEndpoint ? await startTracing(config.ops.otelEndpoint, config.version) : undefined;
  const counting = config.ops.metrics;
  return {
    metrics,
    redis,
    bus,
    tracing,
    observeQuery(engine, status, seconds) {
      if (counting) metrics.observeWarehouseQuery(engine, status, seconds);
      tracing?.record('warehouse.query', { 'db.system': engine, 'sextant.status': status }, seconds, status !== 'ok');
    },
    observeRun(runId, status, seconds) {
      if (counting) metrics.observeAnswer(status, seconds);
      tracing?.record('agent.run', { 'sextant.run_id': runId, 'sextant.status': status }, seconds, status === 'failed');
    },
    readiness: () => checkReadiness(checks, draining.aborted),
    async close() {
      await tracing?.close().catch(() => {});
      await credentialChanges?.close();
      await bus.close();
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * A session ended or a token_version bumped through one replica is seen by the others' next request.
 * On PostgreSQL the database itself announces every write to the credential tables (migration 0101's
 * triggers), whoever made it; on SQLite replicas (several processes only with Redis) the writes are
 * announced on the bus. The listener closes with the operations.
 */
async function shareCredentials(config: Config, store: ServiceStore, bus: MessageBus | undefined): Promise<{ close(): Promise<void> } | undefined> {
  if (store.dialect === 'postgres' && config.databaseUrl) {
    const { listenForCredentialChanges } = await import('../auth/credentials/pg-credential-changes.ts');
    return listenForCredentialChanges(store.executor, config.databaseUrl);
  }
  if (bus) shareCredentialChanges(store.executor, bus);
  return undefined;
}

/** Connects the gauges: running answers, and the mail, evaluation and query-process queues. */
export function watchQueues(ops: Ops, { store, agent, queryProcesses }: { store: ServiceStore; agent: AgentRuns; queryProcesses: QueryProcessPool }): void {
  const { executor } = store;
  // A scrape during shutdown reads nothing from a store being closed.
  const whileOpen = (read: () => number | Promise<number>) => () => (store.open ? read() : 0);
  ops.metrics.setSources({
    runningAnswers: () => agent.activeCount(),
    queues: {
      mail: whileOpen(() => pendingMailCount(executor)),
      evaluation: whileOpen(() => countPendingQuestions(executor)),
      query_processes: () => queryProcesses.waiting,
    },
  });
}
