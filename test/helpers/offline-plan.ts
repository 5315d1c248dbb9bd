// The offline planner over the agent test warehouse's knowledge (agent-warehouse.ts), without running
// anything: the SQL a question is planned to, or its refusal as JSON after "refused: ".
import { buildSql } from '../../src/agent/offline/build-sql.ts';
import { planQuestion } from '../../src/agent/offline/plan-question.ts';
import type { Schema } from '../../src/agent/offline/vocabulary.ts';
import type { MetricDoc } from '../../src/agent/ports.ts';
import { relationshipDocs, tableDocs } from './agent-warehouse.ts';

export const agentSchema = (): Schema => ({ tables: tableDocs(), relationships: relationshipDocs(), paths: new Map() });

/** The same knowledge with these governed metrics documented on its orders. */
export function withOrderMetrics(metrics: MetricDoc[]): Schema {
  const schema = agentSchema();
  schema.tables.find((x) => x.name === 'orders')!.metrics = metrics;
  return schema;
}

/** The question's SQL as planned at `nowMs` (15 January 2026 unless given). */
export function plannedSql(question: string, nowMs = Date.UTC(2026, 0, 15, 12), schema = agentSchema()): string {
  const p = planQuestion(question, [], schema, nowMs);
  return p.kind === 'plan' ? (buildSql(p.plan)?.sql ?? 'refused: no SQL') : `refused: ${JSON.stringify(p)}`;
}
