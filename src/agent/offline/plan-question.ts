// The offline model's reading of a question, start to end: refuse questions about causes and the
// future, read the words (with the chat's previous question for a follow-up), refuse what is not
// understood completely, resolve a plan, and check the period against the documented coverage.
import type { CoverageDoc } from '../ports.ts';
import { checkCoverage } from './coverage.ts';
import { isFollowUp, mergeIntents } from './follow-up.ts';
import type { Intent } from './intent.ts';
import type { Period } from './periods.ts';
import type { Plan } from './plan.ts';
import { readQuestion } from './read-question.ts';
import { outOfFamily, refuse, type Refusal } from './refusals.ts';
import { repairWords } from './repair.ts';
import { resolvePlan, type Resolution } from './resolve-plan.ts';
import { displayProblem, havingProblem } from './units.ts';
import type { Schema } from './vocabulary.ts';
import { normalize } from './words.ts';

/** `readings`: how misspelt words were read ("Reading 'custmers' as 'customers'."), for the answer to state. */
export type Outcome =
  | { kind: 'plan'; plan: Plan; partial?: CoverageDoc; readings: string[] }
  | { kind: 'no_data'; plan: Plan; coverage: CoverageDoc; period: Period; readings: string[] }
  | Refusal;

/** Follow-ups are read with at most this many earlier questions. */
const CHAIN = 5;

/**
 * Plans a question; `earlier` are the chat's previous questions, oldest first. `repair: false` reads
 * only the words as written, refusing any it does not know (the reading before the language layer,
 * which bench/evaluations.ts measures the language layer's cost against).
 */
export function planQuestion(question: string, earlier: string[], schema: Schema, nowMs: number, { repair = true }: { repair?: boolean } = {}): Outcome {
  if (schema.tables.length === 0) return refuse('no_knowledge');
  const understood = understand(question, earlier.slice(-CHAIN), schema, nowMs, repair);
  if (understood.kind === 'refuse') return understood;
  const resolved = resolveInChat(understood, schema);
  if (!resolved.ok) return refuse('unmapped', resolved.reason);
  const units = (resolved.plan.display && displayProblem(resolved.plan, resolved.plan.display)) || havingProblem(resolved.plan);
  if (units) return refuse('unmapped', units);
  const coverage = checkCoverage(resolved.plan);
  const { readings } = understood;
  if (coverage.kind === 'outside') return { kind: 'no_data', plan: resolved.plan, coverage: coverage.coverage, period: coverage.period, readings };
  return { kind: 'plan', plan: resolved.plan, readings, ...(coverage.kind === 'partial' ? { partial: coverage.coverage } : {}) };
}

interface Understood {
  kind: 'intent';
  intent: Intent;
  /** The previous question's intent, when this one took its period and filters ("and the units?"). */
  previous?: Intent;
  readings: string[];
}

/**
 * Resolves the plan; a period carried over to a new measure stays only where it means the same date:
 * after "revenue in 2025", "and the units?" keeps 2025 (units are dated by the order), "and how many
 * customers do we have?" does not become "customers who signed up in 2025".
 */
function resolveInChat(u: Understood, schema: Schema): Resolution {
  const resolved = resolvePlan(u.intent, schema);
  if (!u.previous || !resolved.ok || u.intent.period !== u.previous.period || !u.intent.period) return resolved;
  const before = resolvePlan(u.previous, schema);
  if (before.ok && dateOf(before.plan) === dateOf(resolved.plan)) return resolved;
  return resolvePlan({ ...u.intent, period: undefined, periodColumns: [] }, schema);
}

const dateOf = (plan: Plan) => {
  const f = plan.filters.find((x) => x.kind === 'period');
  return f ? `${f.ref.table.connection}.${f.ref.table.schema}.${f.ref.table.name}.${f.ref.column.name}` : undefined;
};

/** The intent of a question in its chat, or the refusal of it. */
function understand(question: string, earlier: string[], schema: Schema, nowMs: number, repairs: boolean): Understood | Refusal {
  const family = outOfFamily(normalize(question));
  if (family) return family;
  const read = readRepaired(question, schema, nowMs, repairs);
  if (read.kind === 'refuse') return read;
  let { intent } = read;
  if (earlier.length > 0 && isFollowUp(intent)) {
    const previous = understand(earlier.at(-1)!, earlier.slice(0, -1), schema, nowMs, repairs);
    // After a question it could not answer, one that names its own measure is answered alone, and one
    // with words it cannot read is refused for those; only a bare "and in France?" is refused for the other.
    // The earlier question's unread words go with the refusal: values the data may hold ("revenue in
    // Munich", then "and by month?"), looked up again since a chat's history keeps no tool results.
    if (previous.kind === 'refuse') {
      if (intent.explicit || intent.unknown.length > 0) return checked(intent, nowMs, read.readings);
      return { ...refuse('unmapped', 'it continues a question I could not answer'), ...(previous.unread ? { unread: previous.unread } : {}) };
    }
    const own = intent;
    intent = mergeIntents(previous.intent, own);
    if (own.explicit) return checked(intent, nowMs, read.readings, previous.intent);
  }
  return checked(intent, nowMs, read.readings);
}

/** The question read as written, or, when words are left over, read again with those words repaired. */
function readRepaired(question: string, schema: Schema, nowMs: number, repairs: boolean): { kind: 'read'; intent: Intent; readings: string[] } | Refusal {
  const intent = readQuestion(question, schema, nowMs);
  if (intent.unknown.length === 0 || !repairs) return { kind: 'read', intent, readings: [] };
  const repair = repairWords(normalize(question), intent.unknown, schema);
  if (!repair) return { kind: 'read', intent, readings: [] };
  if (repair.kind === 'ambiguous') return refuse('unmapped', repair.detail);
  // A repaired word may turn out to be about causes or the future ("forcast").
  const family = outOfFamily(repair.text);
  if (family) return family;
  return { kind: 'read', intent: readQuestion(repair.text, schema, nowMs), readings: repair.readings };
}

/** The intent, or its refusal when words are left over, nothing is measured, or the period is in the future. */
function checked(intent: Intent, nowMs: number, readings: string[], previous?: Intent): Understood | Refusal {
  if (intent.unknown.length > 0) return { ...refuse('unmapped', `I do not know what ${intent.unknown.map((w) => `"${w}"`).join(', ')} means here`), ...(intent.measure ? { unread: intent.unknown } : {}) };
  if (intent.unclear) return refuse('unmapped', intent.unclear);
  if (!intent.measure) return refuse('unmapped', 'it names nothing to count or measure');
  // "customers in Germany", "orders last month": a table narrowed by values, amounts or a period is
  // counted, as "orders by channel" is; a table alone ("orders") asks for nothing yet.
  const narrowed = intent.values.length > 0 || intent.compares.length > 0 || intent.period !== undefined || intent.weekDays !== undefined || intent.related !== undefined;
  if (!intent.explicit && intent.groups.length === 0 && !narrowed) return refuse('unmapped', 'it names a table but not what to count or measure');
  // "Countries with more than 100 customers as a percentage": shares or averages of the groups kept, or of all?
  if (intent.having && (intent.share || intent.perUnit || intent.perEach || intent.change || intent.display?.share)) return refuse('unmapped', 'it keeps groups by their total and asks for other units at once');
  // "The second most ... per category", shares of the rows kept in each: a ranking within groups only lists their first rows.
  if (intent.ranking?.within && (intent.ranking.offset || intent.display?.share || intent.share)) return refuse('unmapped', 'it ranks within each group and asks for a place or a share at once');
  // "top 3 only" after an answer of one number or of rows: nothing grouped to rank, and the rows are not ranked by anything.
  if (intent.ranking && intent.groups.length === 0) return refuse('unmapped', 'it ranks, but the answer it continues has no groups to rank');
  const today = new Date(nowMs).toISOString().slice(0, 10);
  if (intent.period?.from && intent.period.from > today) return refuse('predictive');
  return { kind: 'intent', intent, readings, ...(previous ? { previous } : {}) };
}
