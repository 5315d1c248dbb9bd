// What an environment does to the answers: every evaluation of the environment, run against the
// environment and against production (or a finished run of the caller's at the same commits reused),
// and compared question by question. The merge gate decides on this.
import type { Principal } from '../auth/index.ts';
import { compareRows, type Comparison } from './compare-runs.ts';
import type { EvaluationDeps } from './deps.ts';
import type { EvaluationDefinition, ResolvedTarget } from './ports.ts';
import { createRun, definitionHash, requireModeler } from './start-run.ts';
import { activeRun, reusableRun, type RunRow } from './store/runs-store.ts';

export interface Regression {
  evaluation_id: string;
  question_id: string;
  question: string;
  expected: number | string;
  production_observed: number | string | null;
  environment_observed: number | string | null;
  environment_result: string;
}

export interface EvaluationDiffEntry {
  evaluation_id: string;
  name: string;
  status: 'ready' | 'pending';
  production_run_id: string | null;
  environment_run_id: string | null;
  /** A run of other questions or another commit holds the target; this one starts once it ends. */
  blocked_by: string | null;
  comparison: Comparison | null;
}

export interface EvaluationDiff {
  status: 'ready' | 'pending';
  environment: { id: string; name: string; commit: string | null };
  production: { commit: string | null };
  evaluations: EvaluationDiffEntry[];
  regressions: Regression[];
  /** Evaluation files of the environment that cannot run. */
  unusable: { id: string; error: string }[];
}

type Ensured = { run: RunRow } | { blockedBy: string };

/**
 * Runs or reuses both sides of every evaluation; `launch` starts the runs it creates. Answers at once:
 * `status` is pending until every run has ended.
 */
export async function environmentDiff(deps: EvaluationDeps, p: Principal, environmentId: string, launch: (run: RunRow) => void): Promise<EvaluationDiff> {
  requireModeler(p);
  const env = await deps.ports.knowledge.resolveTarget(p, environmentId);
  const prod = await deps.ports.knowledge.resolveTarget(p, undefined);
  const { commit, evaluations } = await deps.ports.knowledge.definitions(p, environmentId);
  const entries: EvaluationDiffEntry[] = [];
  const unusable: { id: string; error: string }[] = [];
  for (const def of evaluations) {
    if ('error' in def) unusable.push(def);
    else if (def.questions.length === 0) unusable.push({ id: def.id, error: def.warnings.join('; ') || 'no questions' });
    else {
      const ensure = (target: ResolvedTarget) => ensureRun(deps, p, { def, commit: commit ?? '', environmentId, target, launch });
      entries.push(await entry(deps, def, await ensure(env), await ensure(prod)));
    }
  }
  const regressions = entries.flatMap((e) =>
    (e.comparison?.questions ?? [])
      .filter((q) => q.change === 'regressed')
      .map((q) => ({
        evaluation_id: e.evaluation_id,
        question_id: q.id,
        question: q.question,
        expected: q.expected,
        production_observed: q.baseline?.observed ?? null,
        environment_observed: q.run?.observed ?? null,
        environment_result: q.run?.result ?? 'missing',
      })),
  );
  return {
    status: entries.every((e) => e.status === 'ready') ? 'ready' : 'pending',
    environment: { id: environmentId, name: env.name, commit: env.commit },
    production: { commit: prod.commit },
    evaluations: entries,
    regressions,
    unusable,
  };
}

async function entry(deps: EvaluationDeps, def: EvaluationDefinition, onEnv: Ensured, onProd: Ensured): Promise<EvaluationDiffEntry> {
  const envRun = 'run' in onEnv ? onEnv.run : undefined;
  const prodRun = 'run' in onProd ? onProd.run : undefined;
  const ready = envRun?.status === 'completed' && prodRun?.status === 'completed';
  return {
    evaluation_id: def.id,
    name: def.name,
    status: ready ? 'ready' : 'pending',
    production_run_id: prodRun?.id ?? null,
    environment_run_id: envRun?.id ?? null,
    blocked_by: 'blockedBy' in onEnv ? onEnv.blockedBy : 'blockedBy' in onProd ? onProd.blockedBy : null,
    comparison: ready ? await compareRows(deps, envRun, prodRun) : null,
  };
}

/** A finished run of the caller's at the same commit and questions, the matching active run, or a new one. */
async function ensureRun(
  deps: EvaluationDeps,
  p: Principal,
  a: { def: EvaluationDefinition; commit: string; environmentId: string; target: ResolvedTarget; launch: (run: RunRow) => void },
): Promise<Ensured> {
  const targetKey = a.target.environment_id ?? '';
  const definitionHashValue = definitionHash(a.def.questions);
  const reused = await reusableRun(deps.store, { orgId: p.orgId, evaluationId: a.def.id, targetKey, targetCommit: a.target.commit, definitionHash: definitionHashValue, userId: p.userId });
  if (reused) return { run: reused };
  const active = await activeRun(deps.store, p.orgId, a.def.id, targetKey);
  if (active) return active.target_commit === a.target.commit && active.definition_hash === definitionHashValue && active.user_id === p.userId ? { run: active } : { blockedBy: active.id };
  const { run } = await createRun(deps, p, { definition: a.def, commit: a.commit, sourceEnvironmentId: a.environmentId, target: a.target, trigger: 'merge_gate' });
  a.launch(run);
  return { run };
}
