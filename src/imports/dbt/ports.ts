// What the import needs from other domains, implemented in src/compose (one file per port).
import type { Principal } from '../../auth/index.ts';

/** A table or view the connection has, as the warehouse spells it. */
export interface WarehouseRelation {
  schema: string;
  name: string;
  columns: { name: string; type: string }[];
}

/** The data plane's side: the relations of a connection of the caller's organization (404 otherwise). */
export interface WarehousePort {
  relationsOf(principal: Principal, connectionId: string): Promise<{ dialect: string; relations: WarehouseRelation[] }>;
}

/** A file the import writes (`content`, or the id of the blob it wrote with `write`), or deletes (`content: null`). */
export type ImportChange = { path: string; content: string | null } | { path: string; oid: string };

/** A knowledge file as it is on the environment's branch. */
export interface KnowledgeText {
  path: string;
  text: string;
}

/** A knowledge file on the branch by its blob id (git's SHA-1 of `blob <bytes>\0<text>`), read only when needed. */
export interface KnowledgeFile {
  path: string;
  oid: string;
}

/** The knowledge side: environments and one commit of many files. */
export interface KnowledgePort {
  /** Checks the environment is the organization's (404 otherwise) and that the caller may write it. */
  checkEnvironment(principal: Principal, environmentId: string): Promise<void>;
  /** The file of a knowledge item of `kind` (`tables`, `relationships`, `reports`), or why its id cannot name one. */
  fileOf(kind: 'tables' | 'relationships' | 'reports', doc: Record<string, unknown>, id?: string): { path: string } | { problem: string };
  /** Why an item is not valid for its kind's schema, or undefined (checked only for the files an import writes). */
  problemOf(kind: 'tables' | 'relationships' | 'reports', path: string, doc: Record<string, unknown>): string | undefined;
  /** Creates a lasting environment from production; its id. */
  createEnvironment(principal: Principal, name: string): Promise<string>;
  /**
   * One commit on the environment: `decide` gets the files under `prefixes` at the branch head
   * (inside the repository's write lock), a reader of their texts and a writer of a file's blob (its
   * id, for a change by id), and returns the changes; none, no commit.
   */
  commit(
    principal: Principal,
    environmentId: string,
    a: { prefixes: string[]; message: string; decide: (files: KnowledgeFile[], read: (files: KnowledgeFile[]) => Promise<KnowledgeText[]>, write: (text: string) => Promise<string>) => Promise<ImportChange[]> },
  ): Promise<{ commit: string | null; changed: boolean }>;
}
