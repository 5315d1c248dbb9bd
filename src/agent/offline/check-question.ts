// Whether the offline model answers a question, read the way a run reads it (the same knowledge
// searches, the same planner), without running anything; and the follow-ups it would answer after
// a question: another grouping of the same measure, by month, or the previous year. Suggestions
// offer only these, so that a suggested question is never one the model then refuses.
import type { KnowledgeHit } from '../ports.ts';
import { buildSql } from './build-sql.ts';
import { missingTables, schemaFrom, searchQuery } from './offline-provider.ts';
import { planQuestion } from './plan-question.ts';
import type { Plan } from './plan.ts';
import { isContact, listedValues } from './vocabulary.ts';

/** The knowledge search a run would make (`search_knowledge`). */
export type SearchKnowledge = (query: string, limit: number) => Promise<KnowledgeHit[]>;

const LIMIT = 30;
const FOLLOW_UPS = 4;

async function planned(search: SearchKnowledge, question: string, earlier: string[], nowMs: number): Promise<Plan | undefined> {
  const hits = await search(searchQuery([...earlier.slice(-2), question].join(' ')), LIMIT);
  const missing = missingTables(schemaFrom(hits));
  const all = missing.length > 0 ? [...hits, ...(await search(missing.join(' '), LIMIT))] : hits;
  const outcome = planQuestion(question, earlier, schemaFrom(all), nowMs);
  return outcome.kind === 'plan' && buildSql(outcome.plan) ? outcome.plan : undefined;
}

/** True when the offline model answers `question` (after `earlier`, in a chat) with a query. */
export async function offlineAnswers(search: SearchKnowledge, question: string, earlier: string[], nowMs: number): Promise<boolean> {
  return (await planned(search, question, earlier, nowMs)) !== undefined;
}

const isKey = (name: string) => /(^|_)(id|key)$/i.test(name);
const words = (name: string) => name.replace(/_/g, ' ');

/** Follow-ups of `question` that the offline model answers: other groupings of its measure, by month, the year before. */
export async function offlineFollowUps(search: SearchKnowledge, question: string, earlier: string[], nowMs: number): Promise<string[]> {
  const plan = await planned(search, question, earlier, nowMs);
  if (!plan) return [];
  const grouped = new Set(plan.dimensions.map((d) => (d.kind === 'label' ? d.label.column.name : d.ref.column.name)));
  const bucketed = plan.dimensions.some((d) => d.kind === 'bucket');
  const hasPeriod = plan.filters.some((f) => f.kind === 'period');
  const lastYear = new Date(nowMs).getUTCFullYear() - 1;
  // Text columns of the tables read: the dimensions people group by (not keys, not contact details,
  // not the ones in use), those whose documentation lists their values first: "by segment" before
  // "by name", which gives each customer a row of one.
  const columns = plan.tables.flatMap((t) => t.columns.filter((c) => /char|text|string/i.test(c.type ?? '') && !isKey(c.name) && !isContact(c) && !grouped.has(c.name)));
  const dimensions = [...columns.filter((c) => listedValues(c).length > 0), ...columns.filter((c) => listedValues(c).length === 0)].map((c) => c.name);
  const candidates = [
    ...(bucketed ? [] : ['and by month?']),
    ...[...new Set(dimensions)].map((d) => `and by ${words(d)}?`),
    ...(hasPeriod ? [] : [`and in ${lastYear}?`]),
  ];
  const chat = [...earlier, question];
  const out: string[] = [];
  for (const candidate of candidates) {
    if (out.length >= FOLLOW_UPS) break;
    if (await planned(search, candidate, chat, nowMs)) out.push(candidate);
  }
  return out;
}
