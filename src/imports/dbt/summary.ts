// The answer of an import, also kept with the environment.

/** A node, test or metric that was not imported, and why. */
export interface Skipped {
  unique_id: string;
  reason: string;
}

/** A file a person changed after the import wrote it: left as it is. */
export interface ImportConflict {
  path: string;
  unique_id: string;
  reason: string;
}

export type KindCounts = { created: number; updated: number; unchanged: number; deleted: number };

export const COUNTED_KINDS = ['tables', 'relationships', 'reports'] as const;
export type CountedKind = (typeof COUNTED_KINDS)[number];

export interface ImportSummary {
  environment_id: string;
  /** True when the import made the environment. */
  environment_created: boolean;
  project: string;
  generated_at: string;
  connection_id: string;
  /** The commit written, null when nothing changed. */
  commit: string | null;
  counts: Record<CountedKind, KindCounts>;
  /** Governed metrics placed on table documentation. */
  metrics: number;
  skipped: Skipped[];
  conflicts: ImportConflict[];
}

/** Zero counts for every kind. */
export function emptyCounts(): Record<CountedKind, KindCounts> {
  const zero = () => ({ created: 0, updated: 0, unchanged: 0, deleted: 0 });
  return { tables: zero(), relationships: zero(), reports: zero() };
}
