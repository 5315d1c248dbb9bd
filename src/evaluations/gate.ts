// The organization's evaluation gate on merges into production: off (default), report (merges carry
// the comparison) or required (a regression refuses the merge unless an admin overrides it).
import type { Principal } from '../auth/index.ts';
import type { EvaluationDeps } from './deps.ts';
import { EvaluationsForbidden } from './errors.ts';
import { requireModeler } from './start-run.ts';
import { gateOf, setGate, type GateMode } from './store/settings-store.ts';

export async function readGate(deps: EvaluationDeps, p: Principal): Promise<{ evaluation_gate: GateMode }> {
  requireModeler(p);
  return { evaluation_gate: await gateOf(deps.store, p.orgId) };
}

/** Admins only. */
export async function writeGate(deps: EvaluationDeps, p: Principal, gate: GateMode): Promise<{ evaluation_gate: GateMode }> {
  if (p.role !== 'admin') throw new EvaluationsForbidden('Only admins change the evaluation gate', 'EVALUATION_GATE_FORBIDDEN');
  await setGate(deps.store, p.orgId, gate, p.userId, deps.clock.now());
  return { evaluation_gate: gate };
}
