// "Customers with more than 5 orders", "customers who have never ordered", "how many customers placed
// at least 3 orders in 2025": a table's rows kept by how many rows of another table point to each of
// them. Written as a correlated count, `(SELECT COUNT(*) FROM orders AS r WHERE r.customer_id =
// t0.customer_id) > 5`, so the rows kept are never repeated by a join; a row with none counts 0, which
// "never" asks for. Along one documented relationship, the counted table pointing to the other, or
// through one table that points to both ("products never ordered": order lines point to products and
// to orders), whose distinct pointers to the counted table are counted.
// A period applies to the rows counted ("placed 3 orders in 2025"), unless the question names a date
// of another table ("customers who signed up in 2025 with more than 5 orders").
import type { TableDocument } from '../ports.ts';
import type { Intent, RelatedCount } from './intent.ts';
import { docKey, joinPath, type JoinEdge } from './joins.ts';
import type { Span } from './keywords.ts';
import type { PlanBuilder } from './plan-builder.ts';
import type { Filter } from './plan.ts';
import { countsEveryRow, isTemporal, singular } from './vocabulary.ts';
import type { Marks } from './words.ts';

// "with", "having", "who placed", "that have placed", "customers placed", "customers have".
const WITH = String.raw`(?:with |having |(?:who |that )?(?:have |has |had |did )?(?:placed |made )|(?:who |that )?(?:have |has |had ))`;
// "with more than 5", "who placed at least 3", "that have exactly 2", "with 5 or more", "with over 1.5k"
// (a fraction only with a scale: a count of 2.5 rows is no count).
const SOME = new RegExp(String.raw`\b${WITH}(?:(more than|over|at least|fewer than|less than|under|at most|no more than|exactly) )?(\d+(?:\.\d+(?=[km]))?)(k|m)?( or (?:more|fewer|less))? $`);
const SCALES: Record<string, number> = { k: 1e3, m: 1e6 };
// "who placed an order", "that made a purchase": at least one.
const ANY = /\b(?:who |that )?(?:have |has |had |did )?(?:placed|made) (?:an?|any) $/;
// "without orders", "with no orders", "have no orders", "who have never ordered", "that have not placed an order", "who did not buy",
// "which have never been ordered", "who haven't ordered".
const NONE = new RegExp(String.raw`\b(?:(?:with|have|has|had) no |without (?:any )?|(?:who |that |which )?(?:(?:have |has |had |were |was |did )?(?:never|not)|(?:have|has|had|were|was|did)n['’]?t) (?:been )?(?:placed |made |place |make )?(?:any |an? )?)$`);
// "customers who ordered more than 5 times", "products that were ordered at least 100 times": the verb names the rows counted.
const VERB_BEFORE = /^ (?:(?:who|that|which) )?(?:(?:were|was|have been|has been|had been|have|has|had) )?$/;
const TIMES_AFTER = /^ (?:(more than|over|at least|fewer than|less than|under|at most|no more than|exactly) )?(\d+) times?\b/;
const OPS: Record<string, RelatedCount['op']> = {
  'more than': '>', over: '>', 'at least': '>=', 'fewer than': '<', 'less than': '<', under: '<', 'at most': '<=', 'no more than': '<=', exactly: '=',
};

/** "with more than 5 " at the end of `before`: where the words start, the comparison and the number. */
export function countBefore(before: string): { index: number; op: RelatedCount['op']; value: number } | undefined {
  const some = SOME.exec(before);
  const any = some ? null : ANY.exec(before);
  if (any) return { index: any.index, op: '>=', value: 1 };
  if (!some) return undefined;
  const or = some[4] ? (/more/.test(some[4]) ? '>=' : '<=') : undefined;
  return { index: some.index, op: or ?? (some[1] ? OPS[some[1]]! : '='), value: Number(some[2]) * (SCALES[some[3] ?? ''] ?? 1) };
}

/** "more than 5 times" right after a verb that follows the rows kept ("customers who ordered ..."). */
function timesAfter(text: string, s: Span, before: string): { op: RelatedCount['op']; value: number; length: number } | undefined {
  const m = VERB_BEFORE.test(before) ? TIMES_AFTER.exec(text.slice(s.end)) : null;
  return m ? { op: m[1] ? OPS[m[1]]! : '=', value: Number(m[2]), length: m[0].length } : undefined;
}

/** The count that keeps a table's rows, with its words taken; `counted` is the span of the table counted. */
export function readRelatedCount(text: string, spans: Span[], marks: Marks): { related: RelatedCount; counted: Span } | undefined {
  for (const s of spans.filter((x) => x.kind === 'table' || countsRows(x))) {
    const owner = spans.filter((x) => x.kind === 'table' && x.end <= s.start).at(-1);
    const before = text.slice(owner?.end ?? 0, s.start);
    const none = NONE.exec(before);
    const some = none ? undefined : countBefore(before);
    const times = owner && !none && !some ? timesAfter(text, s, before) : undefined;
    if (owner && times) {
      marks.take(owner.end, s.start);
      marks.take(s.end, s.end + times.length);
      return { related: { owners: owner.ms.map((m) => m.table), counted: s.ms.map((m) => m.table), op: times.op, value: times.value, at: s.start }, counted: s };
    }
    if (!owner || (!none && !some)) continue;
    const start = owner.end + (none ?? some)!.index;
    marks.take(start, s.start);
    // "customers who did not buy anything", "... never ordered at all".
    const rest = none ? /^ (?:anything|at all)\b/.exec(text.slice(s.end)) : null;
    if (rest) marks.take(s.end, s.end + rest[0].length);
    const related: RelatedCount = { owners: owner.ms.map((m) => m.table), counted: s.ms.map((m) => m.table), op: some?.op ?? '=', value: some?.value ?? 0, at: s.start };
    return { related, counted: s };
  }
  return undefined;
}

const countsRows = (s: Span) => s.kind === 'metric' && s.ms.every((m) => m.kind === 'metric' && countsEveryRow(m.metric));

/**
 * The filter of a related count on a plan: the owner's key (joined in when it is not the subject)
 * against the rows of the counted table that point to it, with the question's period when it dates
 * them. `periodTaken` says the period is the count's and not the plan's.
 */
export function relatedFilter(b: PlanBuilder, intent: Intent): { filter: Filter; periodTaken: boolean } | string {
  const r = intent.related!;
  for (const owner of r.owners) {
    for (const counted of r.counted) {
      if (docKey(owner) === docKey(counted)) continue;
      const edge = joinPath(b.schema, counted, owner, { fanOut: false });
      const via = edge?.length === 1 ? undefined : bridgeOf(b, owner, counted);
      const toOwner = edge?.length === 1 ? edge[0]! : via?.toOwner;
      if (!toOwner) continue;
      const key = owner.columns.find((c) => c.name === toOwner.toColumn) ?? { name: toOwner.toColumn };
      const ref = b.use({ table: owner, column: key });
      if (!ref) return `it counts ${counted.name} of each ${singular(owner.name)}, which cannot be related to the measure`;
      const period = countedPeriod(intent, counted);
      if (typeof period === 'string') return period;
      const through = via ? { via: { table: via.toOwner.from, toCounted: via.toCounted.fromColumn, countedKey: via.toCounted.toColumn } } : {};
      const compares = intent.compares.filter((c) => countedCompare(intent, c)).map((c) => ({ column: c.columns[0]!.column.name, op: c.op, value: c.value }));
      const filter: Filter = { kind: 'related', ref, counted, column: toOwner.fromColumn, op: r.op, value: r.value, ...through, ...(period ? { period } : {}), ...(compares.length > 0 ? { compares } : {}) };
      return { filter, periodTaken: period !== undefined };
    }
  }
  return `it counts ${r.counted[0]!.name} of each ${singular(r.owners[0]!.name)}, but no documented relationship, or one table between, has ${r.counted[0]!.name} point to ${r.owners[0]!.name}`;
}

/** The one table that points to both the owner and the counted table (order lines to products and orders); none when two could. */
function bridgeOf(b: PlanBuilder, owner: TableDocument, counted: TableDocument): { toOwner: JoinEdge; toCounted: JoinEdge } | undefined {
  const bridges = b.schema.tables.flatMap((t) => {
    const [toOwner, toCounted] = [joinPath(b.schema, t, owner, { fanOut: false }), joinPath(b.schema, t, counted, { fanOut: false })];
    return toOwner?.length === 1 && toCounted?.length === 1 ? [{ toOwner: toOwner[0]!, toCounted: toCounted[0]! }] : [];
  });
  return bridges.length === 1 ? bridges[0] : undefined;
}

/** The period of the rows counted: theirs unless a date of another table is named; by their only date. */
function countedPeriod(intent: Intent, counted: TableDocument): Extract<Filter, { kind: 'related' }>['period'] | string | undefined {
  if (!intent.period || intent.periodColumns.some((c) => docKey(c.table) !== docKey(counted))) return undefined;
  const dates = counted.columns.filter(isTemporal);
  if (dates.length !== 1) return `it names a period for the ${counted.name} counted, but ${counted.name} has ${dates.length === 0 ? 'no date' : 'more than one date'}`;
  return { column: dates[0]!.name, period: intent.period };
}

/**
 * A comparison read on the words of the rows counted ("more than 5 orders over $2,000"): it keeps the
 * rows the count counts. Elsewhere ("orders over $2,000 from customers with more than 5 orders") it keeps the rows measured.
 */
export const countedCompare = (intent: Intent, c: Intent['compares'][number]) => intent.related !== undefined && c.columns.every((m) => m.start === intent.related!.at);
