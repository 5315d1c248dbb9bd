// The merge gate's decision on an environment diff. `required`: a regression (or runs not yet ended)
// refuses the merge, unless an admin overrides; `report`: the merge goes through. Either way the merge
// commit message gets a paragraph saying what the gate saw, and who overrode it.
import type { Principal } from '../auth/index.ts';
import { EvaluationRegression, EvaluationsForbidden, EvaluationsPending } from './errors.ts';
import type { EvaluationDiff } from './environment-diff.ts';
import type { GateMode } from './store/settings-store.ts';

/** Only admins override the gate. */
export function checkOverride(p: Principal, override: boolean): void {
  if (override && p.role !== 'admin') throw new EvaluationsForbidden('Only admins may merge over failing evaluations', 'EVALUATION_OVERRIDE_FORBIDDEN');
}

/** Throws to refuse the merge, or returns the paragraph for the merge commit message. */
export function gateDecision(mode: Exclude<GateMode, 'off'>, diff: EvaluationDiff, p: Principal, override: boolean): string {
  const pending = diff.evaluations.filter((e) => e.status === 'pending');
  const regressed = diff.regressions;
  const blocked = pending.length > 0 || regressed.length > 0;
  if (mode === 'required' && blocked && !override) {
    if (regressed.length > 0) throw new EvaluationRegression(regressed);
    throw new EvaluationsPending(pending.flatMap((e) => [e.environment_run_id, e.production_run_id, e.blocked_by].filter((id): id is string => id !== null)));
  }
  const seen = `${diff.evaluations.length} evaluation(s), ${regressed.length} regressed question(s)${pending.length > 0 ? `, ${pending.length} evaluation(s) still running` : ''}`;
  const lines = regressed.map((r) => `- ${r.evaluation_id}/${r.question_id}: expected ${r.expected}, production ${r.production_observed ?? 'no answer'}, environment ${r.environment_observed ?? 'no answer'}`);
  const head =
    mode === 'report' ? `Evaluation gate (report): ${seen}.` : blocked ? `Evaluation gate overridden by ${p.email}: ${seen}.` : `Evaluation gate passed: ${seen}.`;
  return [head, ...lines].join('\n');
}
