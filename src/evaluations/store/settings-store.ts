// SQL of the organization's evaluation gate (migration 0090); no row means `off`.
import type { EvalStore } from './tables.ts';

export const GATE_MODES = ['off', 'report', 'required'] as const;
export type GateMode = (typeof GATE_MODES)[number];

export async function gateOf(x: EvalStore, orgId: string): Promise<GateMode> {
  const row = await x.one(x.db.selectFrom('evaluation_settings').select('gate').where('org_id', '=', orgId));
  return (row?.gate ?? 'off') as GateMode;
}

export async function setGate(x: EvalStore, orgId: string, gate: GateMode, userId: string, at: number): Promise<void> {
  await x.run(
    x.db
      .insertInto('evaluation_settings')
      .values({ org_id: orgId, gate, updated_by: userId, updated_at: at })
      .onConflict((oc) => oc.column('org_id').doUpdateSet((eb) => ({ gate: eb.ref('excluded.gate'), updated_by: eb.ref('excluded.updated_by'), updated_at: eb.ref('excluded.updated_at') }))),
  );
}
