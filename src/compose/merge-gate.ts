// Merging an environment into production behind the organization's evaluation gate: with the gate on,
// the environment diff is taken once the merge is otherwise allowed, the evaluations domain decides,
// and the merge commit message records what it saw (and an admin's override). With `report` (or an
// override) the response carries the comparison.
import type { Principal } from '../auth/index.ts';
import { checkOverride, EvaluationStale, gateDecision, type EvaluationDiff, type Evaluations } from '../evaluations/index.ts';
import { mergeEnvironment, type KnowledgeDeps } from '../knowledge/index.ts';

export interface MergeBody {
  confirm?: boolean;
  delete_after?: boolean;
  override_evaluations?: boolean;
}

export type GatedMerge = (p: Principal, environmentId: string, body: MergeBody) => Promise<Record<string, unknown>>;

export function gatedMerge(k: KnowledgeDeps, evaluations: Evaluations): GatedMerge {
  return async (p, environmentId, body) => {
    const mode = await evaluations.gateMode(p.orgId);
    if (mode === 'off') return mergeEnvironment(k, p, environmentId, body);
    const override = body.override_evaluations === true;
    let diff: EvaluationDiff | undefined;
    const merged = await mergeEnvironment(k, p, environmentId, body, async (envId) => {
      checkOverride(p, override);
      diff = await evaluations.environmentDiff(p, envId);
      const note = gateDecision(mode, diff, p, override);
      // What was compared must be what merges: a commit on either side meanwhile voids the comparison.
      const [env, prod] = await Promise.all([evaluations.target(p, envId), evaluations.target(p, undefined)]);
      if (mode === 'required' && !override && (env.commit !== diff.environment.commit || prod.commit !== diff.production.commit)) throw new EvaluationStale();
      return note;
    });
    return { ...merged, evaluation_gate: mode, evaluations: diff ?? null };
  };
}
