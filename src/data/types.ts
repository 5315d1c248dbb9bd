// Shared shapes of the data plane: how it reads knowledge (TableDocsSource, implemented over
// the knowledge repository in src/compose) and the SQL dialects it speaks.
import type { Principal } from '../auth/index.ts';
import type { GovernedMetric } from '../shared/governed-metric.ts';

/** SQL dialects the guard and row-level security understand. */
export type SqlDialect = 'duckdb' | 'postgresql' | 'mysql' | 'sqlite';

/**
 * A value bound to a placeholder of a governed statement (`$n` on PostgreSQL and DuckDB, `?` on MySQL
 * and SQLite), in placeholder order: text, a calendar day `YYYY-MM-DD`, or a finite number. Each driver
 * binds it in its own form; the warehouse never reads it as SQL.
 */
export type SqlParam = { type: 'text'; value: string } | { type: 'date'; value: string } | { type: 'number'; value: number };

export interface RowFilter {
  /** SQL boolean over the table's columns, with `{{user.*}}` placeholders. */
  filter: string;
  /** Applies only to members of these groups (by group id or name) when set. */
  groups?: string[];
  /** Roles the filter does not apply to. */
  exempt_roles?: string[];
}

export interface TableDocColumn {
  name: string;
  type?: string;
  description?: string;
  synonyms?: string[];
}

/** A governed metric of a table (the knowledge YAML `metrics:` entry). */
export type TableMetric = GovernedMetric;

/** The dates a table holds data for (knowledge `coverage:`). */
export interface DataCoverage {
  column?: string;
  first: string;
  last: string;
}

/** One `tables/<connection>/<schema>.<table>.yaml` file. */
export interface TableDoc {
  connection: string;
  schema: string;
  name: string;
  description?: string;
  active?: boolean;
  columns?: TableDocColumn[];
  metrics?: TableMetric[];
  coverage?: DataCoverage;
  row_filters?: RowFilter[];
}

/**
 * A table as introspected from the warehouse, written by metadata sync. Knowledge declares what it
 * takes of it (`SyncedTable`, its port); compose hands one to the other (table-docs-source.ts, target-metadata.ts).
 */
export interface WarehouseTable {
  connection: string;
  schema: string;
  name: string;
  /** The warehouse's own comment, used only when no one has written a description. */
  description?: string;
  columns: { name: string; type: string; nullable?: boolean; description?: string }[];
  /** First and last day with data of the documented coverage column (see sync/refresh-coverage.ts). */
  coverage?: { first: string; last: string };
}

export type EnvironmentTargets = Record<string, { schema?: string; database?: string }>;

/** What governance reads of the knowledge for a query, in one read: table docs at a commit and the targets. */
export interface GovernanceKnowledge {
  /** The commit the table docs were read at (undefined: no knowledge yet). */
  commit: string | undefined;
  tables: TableDoc[];
  targets: EnvironmentTargets;
}

/** How the data plane reads and writes table documentation (knowledge implements it). */
export interface TableDocsSource {
  /** Table documentation visible at an environment (undefined = production). */
  listTables(orgId: string, environmentId: string | undefined): Promise<TableDoc[]>;
  /** Per-connection warehouse target overrides of an environment: { [connectionId]: { schema?, database? } }. */
  targets(orgId: string, environmentId: string | undefined): Promise<EnvironmentTargets>;
  /** Table docs at `commit` (default: the environment's head) with the environment's targets, in one read. */
  governance(orgId: string, environmentId: string | undefined, commit?: string): Promise<GovernanceKnowledge>;
  /** Writes synced table documentation, keeping what people wrote (descriptions, synonyms, row_filters). */
  writeSyncedTables(principal: Principal, environmentId: string | undefined, tables: WarehouseTable[]): Promise<void>;
}
