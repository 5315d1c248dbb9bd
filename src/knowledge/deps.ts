// What the knowledge domain needs, built once by the composition root (or by a test).
import { join } from 'node:path';
import type { FsClient } from 'isomorphic-git';
import type { Principal } from '../auth/index.ts';
import type { Clock } from '../clock.ts';
import { createFileLock, createRepoRegistry, loopFs, type RepoRegistry, type SharedLock } from '../git/index.ts';
import type { Logger } from '../log.ts';
import type { SecretBox } from '../security/index.ts';
import type { Executor } from '../store/index.ts';
import { hasEnvironments, type EnvironmentTarget } from './environments-store.ts';
import type { Item } from './item.ts';
import { createOutbound, type Outbound } from '../outbound/index.ts';

/** A table as a metadata sync found it in the warehouse: the one declaration (the data plane's WarehouseTable is handed over in compose). */
export interface SyncedTable {
  connection: string;
  schema: string;
  name: string;
  /** The warehouse's own comment, used only when no one has written a description. */
  description?: string;
  columns: { name: string; type: string; description?: string }[];
  /** First and last day with data of the documented coverage column, when sync measured them. */
  coverage?: { first: string; last: string };
}

/**
 * Reads table metadata of one connection at an environment's warehouse target (the dev schema).
 * The data plane implements it; tables must carry the production schema name their documentation
 * is kept under (targets redirect, the documentation keeps its production name).
 */
export interface TargetMetadataReader {
  readTarget(principal: Principal, connectionId: string, target: EnvironmentTarget): Promise<SyncedTable[]>;
}

export interface KnowledgeDeps {
  /** The asynchronous store: environments and mirror settings. */
  store: Executor;
  clock: Clock;
  log: Logger;
  secretBox: SecretBox;
  /** One bare repository per organization: `<dataDir>/knowledge/<org_id>.git`, written under a lock shared with other processes. */
  repos: RepoRegistry;
  /** The data plane's reader, passed at construction by src/compose; sync_target answers 503 while it is missing. */
  targetSync: TargetMetadataReader | undefined;
  /** A user's display name for commit authors, from the accounts (src/auth owns users); the address stands in without one. */
  userName(userId: string): Promise<string | undefined>;
  /** Whether the organization (a workspace: its base) changes production only through environments, from its settings (src/auth owns them). */
  productionThroughEnvironments(orgId: string): Promise<boolean>;
  /** The guarded client every request to the organization's git remote and GitHub API goes through. */
  outbound: Outbound;
  /** Parsed items per `<org>:<commit>`, as they are read (a commit never changes, so entries never go stale). */
  snapshotCache: Map<string, Promise<Item[]>>;
}

/**
 * Builds the knowledge domain's dependencies; repositories live under `<dataDir>/knowledge`. Their
 * writes hold `sharedLock` (src/compose picks it from the configuration), by default a lock file
 * beside each repository, so processes sharing the data folder never write one repository at once.
 */
export function createKnowledgeDeps(a: {
  store: Executor;
  clock: Clock;
  log: Logger;
  secretBox: SecretBox;
  dataDir: string;
  fs?: FsClient;
  targetSync?: TargetMetadataReader;
  userName?: (userId: string) => Promise<string | undefined>;
  /** Default: production is written directly (the setting is off). */
  productionThroughEnvironments?: (orgId: string) => Promise<boolean>;
  sharedLock?: SharedLock;
  /** The guarded outbound client (default: one that reaches public addresses only). */
  outbound?: Outbound;
}): KnowledgeDeps {
  // node:fs answering short calls in the caller's turn (loop-fs.ts): a write's steps do not queue behind answers.
  const fs = a.fs ?? (loopFs() as unknown as FsClient);
  const onLost = (err: Error) => a.log.warn({ err }, 'knowledge repository lock was lost while held (its holder stalled past the stale limit); the write still compared the branch before moving it');
  // A file system given by the caller (memfs in tests) is this process's alone: the in-process chain
  // is all it needs (proper-lockfile keeps its locks by path, process-wide, across file systems).
  const sharedLock = a.sharedLock ?? (a.fs ? undefined : createFileLock({ onLost }));
  return {
    store: a.store,
    clock: a.clock,
    log: a.log,
    secretBox: a.secretBox,
    // An organization with environments had knowledge: its repository, or its production, missing is a loss.
    repos: createRepoRegistry({ fs, root: join(a.dataDir, 'knowledge'), shared: sharedLock, hadHistory: (orgId) => hasEnvironments(a.store, orgId) }),
    targetSync: a.targetSync,
    userName: a.userName ?? (async () => undefined),
    productionThroughEnvironments: a.productionThroughEnvironments ?? (async () => false),
    outbound: a.outbound ?? createOutbound(),
    snapshotCache: new Map(),
  };
}
