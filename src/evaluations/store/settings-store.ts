// SQL of the organization's evaluation gate (migration 0090); no row means `off`.
import { statement, type Db } from '../../store/index.ts';

export const GATE_MODES = ['off', 'report', 'required'] as const;
export type GateMode = (typeof GATE_MODES)[number];

export function gateOf(db: Db, orgId: string): GateMode {
  return ((statement(db, 'SELECT gate FROM evaluation_settings WHERE org_id = ?').get(orgId) as { gate: GateMode } | undefined)?.gate ?? 'off') as GateMode;
}

export function setGate(db: Db, orgId: string, gate: GateMode, userId: string, at: number): void {
  statement(
    db,
    `INSERT INTO evaluation_settings (org_id, gate, updated_by, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (org_id) DO UPDATE SET gate = excluded.gate, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
  ).run(orgId, gate, userId, at);
}
