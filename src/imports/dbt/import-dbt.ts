// POST /api/import/dbt: a dbt project's artifacts become knowledge items on an environment, in one
// commit; production changes only when the environment is merged.
import { hasRole, type Principal } from '../../auth/index.ts';
import { Forbidden } from '../../errors.ts';
import type { DbtManifest } from './artifacts.ts';
import type { ImportDeps } from './deps.ts';
import { saveImport } from './imports-store.ts';
import { planChanges } from './plan-changes.ts';
import { planImport } from './plan-import.ts';
import { readCatalog, readManifest, type ArtifactSource } from './read-artifacts.ts';
import { COUNTED_KINDS, emptyCounts, type CountedKind, type ImportSummary } from './summary.ts';

export interface ImportDbtInput {
  manifest: ArtifactSource;
  catalog?: ArtifactSource;
  connectionId: string;
  environmentId?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The environment's name when the import makes one: the project and the manifest's generation time. */
function environmentName(manifest: DbtManifest): string {
  const at = manifest.metadata.generated_at ? manifest.metadata.generated_at.slice(0, 16).replace('T', ' ') : 'unknown time';
  return `dbt ${manifest.metadata.project_name ?? 'project'} ${at}`.slice(0, 100);
}

function kindOf(path: string): CountedKind | undefined {
  return COUNTED_KINDS.find((k) => path.startsWith(`${k}/`));
}

/**
 * Reads the artifacts and maps them: what the commit needs, without the manifest and the catalog,
 * which are collected once this returns (a large manifest is not held while files are written).
 */
async function prepare(deps: ImportDeps, p: Principal, input: ImportDbtInput) {
  const manifest = await readManifest(input.manifest);
  const catalog = input.catalog ? await readCatalog(input.catalog, manifest) : undefined;
  const { dialect, relations } = await deps.warehouse.relationsOf(p, input.connectionId);
  if (input.environmentId) await deps.knowledge.checkEnvironment(p, input.environmentId);
  const generatedAt = manifest.metadata.generated_at ?? new Date(deps.clock.now()).toISOString();
  const plan = planImport({ manifest, catalog, connectionId: input.connectionId, dialect, relations, knowledge: deps.knowledge });
  const project = manifest.metadata.project_name ?? 'dbt';
  return { plan, project, generatedAt, environmentName: environmentName(manifest) };
}

/** Imports the artifacts (admins and modelers); bad artifacts are a 422 and write nothing. */
export async function importDbt(deps: ImportDeps, p: Principal, input: ImportDbtInput): Promise<ImportSummary> {
  if (!hasRole(p, 'modeler')) throw new Forbidden('Imports are for admins and modelers');
  const { plan, project, generatedAt, environmentName: name } = await prepare(deps, p, input);
  const environmentId = input.environmentId ?? (await deps.knowledge.createEnvironment(p, name));
  const counts = emptyCounts();
  const skipped: ImportSummary['skipped'] = [];
  let conflicts: ImportSummary['conflicts'] = [];
  const owned = (doc: Record<string, unknown>) => {
    const dbt = isRecord(doc['dbt']) ? doc['dbt'] : {};
    const from = isRecord(doc['from']) ? doc['from'] : {};
    return dbt['project'] === project && (doc['connection'] ?? from['connection']) === input.connectionId;
  };
  const result = await deps.knowledge.commit(p, environmentId, {
    prefixes: [`tables/${input.connectionId}/`, 'relationships/', 'reports/'],
    message: `Import dbt project ${project} (${generatedAt})`,
    decide: async (current, read, write) => {
      // Runs again if the commit is retried: start from zero each time.
      Object.assign(counts, emptyCounts());
      skipped.length = 0;
      const planned = await planChanges({ planned: (again) => plan.files(again ? [] : skipped), memo: deps.memo, current, read, write, generatedAt, owned, kindOf, counts, skipped, problemOf: (f) => deps.knowledge.problemOf(f.kind, f.path, f.doc) });
      conflicts = planned.conflicts;
      return planned.changes;
    },
  });
  const summary: ImportSummary = {
    environment_id: environmentId,
    environment_created: input.environmentId === undefined,
    project,
    generated_at: generatedAt,
    connection_id: input.connectionId,
    commit: result.changed ? result.commit : null,
    counts,
    metrics: plan.metrics,
    skipped: [...plan.skipped, ...skipped],
    conflicts,
  };
  await saveImport(deps.store, { orgId: p.orgId, userId: p.userId, at: deps.clock.now(), summary });
  return summary;
}
