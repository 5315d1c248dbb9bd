// Table documentation in the knowledge repository, as the data plane reads and syncs it (through
// src/compose/table-docs-source.ts). Synced metadata refreshes names, types and the dates of the data coverage;
// what people wrote (descriptions, synonyms, metrics, active flags, row filters, comments) is kept.
import { hasRole, type Principal } from '../auth/index.ts';
import { commitChanges, readFile, resolveRef } from '../git/index.ts';
import type { KnowledgeDeps, SyncedTable } from './deps.ts';
import { KnowledgeReadOnly } from './errors.ts';
import { parseTargets } from './environments-store.ts';
import { idProblem } from './item-id.ts';
import type { Item } from './items.ts';
import { itemsAtCommit } from './snapshot.ts';
import { KIND_DEFS, tableId } from './kinds.ts';
import { mirrorAfterChange } from './mirror.ts';
import { assertProductionWritable, authorOf, scopeFor, type Scope } from './scope.ts';
import { DataCoverage, Metric, TableFile } from './schemas.ts';
import { parseYaml, renderYaml, updateYaml } from './yaml-doc.ts';
import { mapList } from '../shared/derived-list.ts';

/** The parsed table files visible at an environment (undefined = production), at its branch head (shared: not to be changed). */
export async function readTableFiles(deps: KnowledgeDeps, orgId: string, environmentId: string | undefined): Promise<TableFile[]> {
  const scope = await scopeFor(deps, orgId, environmentId);
  const commit = await resolveRef({ repo: scope.repo, ref: scope.branch });
  // Through the snapshot cache: reading and parsing every file per call took seconds at 10,000 tables.
  return commit ? tableFilesOf(await itemsAtCommit(deps, scope.repo, orgId, commit)) : [];
}

/** Per-connection warehouse target overrides of an environment: { [connectionId]: { schema?, database? } }. */
export async function environmentTargets(deps: KnowledgeDeps, orgId: string, environmentId: string | undefined): Promise<Targets> {
  return environmentId ? targetsOf(await scopeFor(deps, orgId, environmentId)) : {};
}

/** Table files at `at` (default: the environment's head) with the environment's targets, in one read. */
export async function readGovernance(deps: KnowledgeDeps, orgId: string, environmentId: string | undefined, at?: string): Promise<{ commit: string | undefined; tables: TableFile[]; targets: Targets }> {
  const scope = await scopeFor(deps, orgId, environmentId);
  const commit = at ?? (await resolveRef({ repo: scope.repo, ref: scope.branch })) ?? undefined;
  // Through the snapshot cache: a run pinned at a commit its search already read reads nothing again.
  const tables = commit ? tableFilesOf(await itemsAtCommit(deps, scope.repo, orgId, commit)) : [];
  return { commit, tables, targets: environmentId ? targetsOf(scope) : {} };
}

type Targets = Record<string, { schema?: string; database?: string }>;

/** Table files parsed once per snapshot: every governed query reads them, and a commit's items never change. */
const parsedTables = new WeakMap<readonly Item[], TableFile[]>();
// And once per item: a snapshot after a commit shares the unchanged items of the one before
// (snapshot.ts), so its list re-parses only the changed files (10,000 parses were ~0.1 s), and is
// the list before with the change applied (mapList) rather than a pass over 10,000 items.
const parsedTable = new WeakMap<Item, TableFile | null>();

function tableFileOf(item: Item): TableFile | undefined {
  if (item.kind !== 'tables') return undefined;
  let parsed = parsedTable.get(item);
  if (parsed === undefined) parsedTable.set(item, (parsed = parseTableFile(item.data) ?? null));
  return parsed ?? undefined;
}

/** The parsed table files among items (shared by the readers of one snapshot: not to be changed). */
function tableFilesOf(items: Item[]): TableFile[] {
  return mapList(items, parsedTables, tableFileOf);
}

/** The warehouse overrides of an environment's scope; production has none. */
function targetsOf(scope: Scope): Targets {
  if (!scope.env) return {};
  const out: Targets = {};
  for (const [conn, t] of Object.entries(parseTargets(scope.env))) {
    // BigQuery-style project/dataset are the database/schema of the data plane.
    const schema = t.schema ?? t.dataset;
    const database = t.database ?? t.project;
    out[conn] = { ...(schema ? { schema } : {}), ...(database ? { database } : {}) };
  }
  return out;
}

/** Commits synced tables (one commit for the lot) on production or an environment. */
export async function writeSyncedTables(deps: KnowledgeDeps, principal: Principal, environmentId: string | undefined, all: SyncedTable[]): Promise<void> {
  if (!hasRole(principal, 'modeler')) throw new KnowledgeReadOnly();
  if (!environmentId) await assertProductionWritable(deps, principal.orgId);
  // A warehouse may hold names no file can have (control characters, over-long): those are skipped.
  const skipped = all.filter((t) => idProblem('tables', tableId(t.connection, t.schema, t.name)) !== undefined);
  if (skipped.length > 0) deps.log.warn({ tables: skipped.slice(0, 20).map((t) => JSON.stringify(`${t.schema}.${t.name}`)) }, 'table names that cannot be file names were not documented');
  const tables = all.filter((t) => !skipped.includes(t));
  if (tables.length === 0) return;
  const scope = await scopeFor(deps, principal.orgId, environmentId);
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: await authorOf(deps, principal),
    message: `Sync table documentation (${tables.length} table${tables.length === 1 ? '' : 's'})`,
    changes: async (parent) =>
      Promise.all(
        tables.map(async (t) => {
          const path = KIND_DEFS.tables.pathOf(tableId(t.connection, t.schema, t.name));
          const current = parent ? await readFile({ repo: scope.repo, ref: parent, path }) : undefined;
          return { path, content: mergeSynced(current, t) };
        }),
      ),
  });
  if (result.changed) await mirrorAfterChange(deps, scope);
}

/** The new text of a table file after a sync. */
export function mergeSynced(current: string | undefined, t: SyncedTable): string {
  const parsed = current !== undefined ? parseYaml(current) : undefined;
  const old = parsed && !parsed.error && parsed.value && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : undefined;
  if (!old) {
    return renderYaml({
      connection: t.connection,
      schema: t.schema,
      name: t.name,
      description: t.description ?? '',
      active: true,
      columns: t.columns.map((c) => ({ name: c.name, type: c.type, ...(c.description ? { description: c.description } : {}) })),
    });
  }
  const oldColumns = Array.isArray(old['columns']) ? (old['columns'] as Record<string, unknown>[]) : [];
  const columns = t.columns.map((c) => {
    const was = oldColumns.find((o) => o && o['name'] === c.name);
    if (!was) return { name: c.name, type: c.type, ...(c.description ? { description: c.description } : {}) };
    const kept: Record<string, unknown> = { ...was, type: c.type };
    if (!kept['description'] && c.description) kept['description'] = c.description;
    return kept;
  });
  const next: Record<string, unknown> = { ...old, connection: t.connection, schema: t.schema, name: t.name, columns };
  if (!next['description'] && t.description) next['description'] = t.description;
  if (t.coverage) next['coverage'] = { ...(isRecord(old['coverage']) ? old['coverage'] : {}), ...t.coverage };
  return updateYaml(current, next);
}

/**
 * A table file as the data plane reads it. A broken metric or coverage (pushed through a git mirror)
 * drops only itself: the table and its row filters stay in force.
 */
function parseTableFile(data: unknown): TableFile | undefined {
  const whole = TableFile.safeParse(data);
  if (whole.success) return whole.data;
  if (!isRecord(data)) return undefined;
  const { metrics, coverage, ...rest } = data;
  const kept = (Array.isArray(metrics) ? metrics : []).flatMap((m) => {
    const r = Metric.safeParse(m);
    return r.success ? [r.data] : [];
  });
  const cov = DataCoverage.safeParse(coverage);
  const retry = TableFile.safeParse(rest);
  if (!retry.success) return undefined;
  return { ...retry.data, metrics: kept.filter((m, i) => kept.findIndex((x) => x.name === m.name) === i), ...(cov.success ? { coverage: cov.data } : {}) };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
