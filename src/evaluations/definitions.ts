// Evaluation definitions where the caller works (production, or the environment of the request), each
// with its newest run; and a target named with its head commit and warehouse overrides.
import type { Principal } from '../auth/index.ts';
import type { EvaluationDeps } from './deps.ts';
import type { EvaluationDefinition, ResolvedTarget } from './ports.ts';
import { runView, type RunView } from './run-view.ts';
import { requireModeler } from './start-run.ts';
import { resultsOf } from './store/results-store.ts';
import { latestRun } from './store/runs-store.ts';

export interface EvaluationSummary {
  id: string;
  name: string;
  description: string | null;
  question_count: number;
  /** True when the file predates the current format and is migrated on read. */
  migrated: boolean;
  warnings: string[];
  /** Unreadable file: why (the other fields are empty). */
  error: string | null;
  last_run: RunView | null;
}

export async function listDefinitions(deps: EvaluationDeps, p: Principal, environmentId: string | undefined): Promise<{ commit: string | null; evaluations: EvaluationSummary[] }> {
  requireModeler(p);
  const { commit, evaluations } = await deps.ports.knowledge.definitions(p, environmentId);
  return {
    commit,
    evaluations: await Promise.all(
      evaluations.map(async (d) => {
        const last = await latestRun(deps.store, p.orgId, d.id);
        const base = { id: d.id, last_run: last ? runView(last, await resultsOf(deps.store, last.id), false) : null };
        if ('error' in d) return { ...base, name: d.id, description: null, question_count: 0, migrated: false, warnings: [], error: d.error };
        return { ...base, name: d.name, description: d.description ?? null, question_count: d.questions.length, migrated: d.migrated, warnings: d.warnings, error: null };
      }),
    ),
  };
}

export async function getDefinition(deps: EvaluationDeps, p: Principal, environmentId: string | undefined, id: string): Promise<EvaluationDefinition & { commit: string }> {
  requireModeler(p);
  const { definition, commit } = await deps.ports.knowledge.definition(p, environmentId, id);
  return { ...definition, commit };
}

/** Production, or the environment `environmentId` of the caller's organization (404 otherwise). */
export async function describeTarget(deps: EvaluationDeps, p: Principal, environmentId: string | undefined): Promise<ResolvedTarget> {
  requireModeler(p);
  return deps.ports.knowledge.resolveTarget(p, environmentId);
}
