// The organization's evaluation gate on merges into production: off (default), report (merges carry
// the comparison) or required (a regression refuses the merge unless an admin overrides it).
import type { Principal } from '../auth/index.ts';
import type { EvaluationDeps } from './deps.ts';
import { EvaluationsForbidden } from './errors.ts';
import { requireModeler } from './start-run.ts';
import { gateOf, setGate, type GateMode } from './store/settings-store.ts';

export function readGate(deps: EvaluationDeps, p: Principal): { evaluation_gate: GateMode } {
  requireModeler(p);
  return { evaluation_gate: gateOf(deps.db, p.orgId) };
}

/** Admins only. */
export function writeGate(deps: EvaluationDeps, p: Principal, gate: GateMode): { evaluation_gate: GateMode } {
  if (p.role !== 'admin') throw new EvaluationsForbidden('Only admins change the evaluation gate', 'EVALUATION_GATE_FORBIDDEN');
  setGate(deps.db, p.orgId, gate, p.userId, deps.clock.now());
  return { evaluation_gate: gate };
}
