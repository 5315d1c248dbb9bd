// A query plan: one table read (the subject), joined along documented relationships, one measure,
// dimensions to group by, filters, ordering and a limit. build-sql.ts turns it into SQL.
import type { MetricDoc, TableColumnDoc, TableDocument } from '../ports.ts';
import type { Bucket, CompareOp, Having } from './intent.ts';
import { docKey, type JoinEdge } from './joins.ts';
import type { Period, PeriodBucket } from './periods.ts';
import type { ChartRequest } from './chart-request.ts';
import type { Display } from './display.ts';
import type { WeekDays } from './week-days.ts';

export interface ColumnRef {
  table: TableDocument;
  column: TableColumnDoc;
}

export type PlanMeasure =
  /** A governed metric: its expression, with its filter added to the query's. */
  | { kind: 'metric'; metric: MetricDoc }
  /** Rows of the subject; distinct keys when a join repeats them. `metric` when a count metric governs it. */
  | { kind: 'count'; distinct?: ColumnRef; metric?: MetricDoc }
  | { kind: 'column'; aggregate: 'sum' | 'avg' | 'median' | 'min' | 'max'; ref: ColumnRef }
  /**
   * The rows themselves: the columns shown, in the order given by `sort`; `distinct` when a filter
   * reaches them across a join that repeats them ("which customers bought Electronics").
   */
  | { kind: 'rows'; columns: ColumnRef[]; sort: { ref: ColumnRef; dir: 'asc' | 'desc' }[]; distinct?: true };

export type Dimension =
  | { kind: 'column'; ref: ColumnRef }
  | { kind: 'bucket'; bucket: Bucket; ref: ColumnRef }
  /** Rows of a table named by its label (`name`), grouped by its key so that equal names stay apart. */
  | { kind: 'label'; key?: ColumnRef; label: ColumnRef };

export type Filter =
  /** `not`: rows whose value is none of `values` (or unknown). */
  | { kind: 'values'; ref: ColumnRef; values: string[]; not?: true }
  | { kind: 'compare'; ref: ColumnRef; op: CompareOp; value: number }
  | { kind: 'period'; ref: ColumnRef; period: Period }
  /** Rows whose date falls on these ISO days of the week (Monday 1 to Sunday 7): "on weekends". */
  | { kind: 'days'; ref: ColumnRef; days: WeekDays }
  /**
   * Rows of `ref`'s table kept by how many rows of `counted` point to them by `column` (related-count.ts),
   * those of `period` and `compares` only when they are given; `via` a table between that points to both by `column`
   * and `toCounted` (the counted rows are its distinct `toCounted`, their `countedKey`).
   */
  | { kind: 'related'; ref: ColumnRef; counted: TableDocument; column: string; op: CompareOp | '='; value: number; period?: { column: string; period: Period }; compares?: { column: string; op: CompareOp; value: number }[]; via?: { table: TableDocument; toCounted: string; countedKey: string } };

/** "average daily ..." (per-unit.ts): the units divided by, and the days they cover (`until` inclusive), for the answer to say. */
export interface UnitCount {
  bucket: PeriodBucket;
  units: number;
  from: string;
  until: string;
}

/** "revenue per customer" (per-each.ts): the distinct values counted to divide by, and the row they stand for ("customer"). */
export interface PerEachCount {
  ref: ColumnRef;
  noun: string;
}

export interface Plan {
  subject: TableDocument;
  measure: PlanMeasure;
  dimensions: Dimension[];
  filters: Filter[];
  order: 'asc' | 'desc' | 'time' | undefined;
  limit: number | undefined;
  /** Rows skipped before the limit ("the second most": 1). */
  offset?: number;
  /** "top 3 products per category": the limit and order apply to the first dimension within each combination of the others. */
  within?: true;
  /** Joins in order: each starts from a table already read. */
  joins: JoinEdge[];
  /** Every table read, the subject first. */
  tables: TableDocument[];
  /** "what percentage of orders were cancelled": the measure of the rows these keep, divided by the whole (share-of.ts). */
  share?: { filters: Filter[] };
  /** "countries with more than 100 customers": the groups whose measure is within the bound (kept-groups.ts). */
  having?: Having;
  /** "average daily ...": the measure divided by the units of the period (per-unit.ts). */
  perUnit?: UnitCount;
  /** "revenue per customer": the measure divided by the distinct keys counted (per-each.ts). */
  perEach?: PerEachCount;
  /** The text states the change from the earlier period compared to the later one; the query is the same. */
  change?: true;
  /** "revenue growth by month in 2025": each period's change from the one before, in SQL; periods from `from` shown. */
  steps?: { bucket: PeriodBucket; from?: string };
  /** How the answer text prints the measure; the query is the same with or without it. */
  display?: Display;
  /** The chart the answer is drawn as; the query is the same with or without it. */
  chart?: ChartRequest;
}

/** The metric governing a plan, if any. */
/** Groups ranked by their change ("which channel grew the most in 2025"): steps ordered by the change, not by time (steps.ts rankedChange). */
export const ranksByChange = (plan: Plan): boolean => plan.steps !== undefined && (plan.order === 'asc' || plan.order === 'desc');

export const metricOf = (plan: Plan): MetricDoc | undefined => (plan.measure.kind === 'metric' || plan.measure.kind === 'count' ? plan.measure.metric : undefined);

/**
 * Whether each group is one row of the column's table (grouped by that table's key: "the most
 * expensive products"): its sum is the row's own value, a unit price and not a "total unit price".
 */
export const onePerGroup = (dimensions: Dimension[], ref: ColumnRef) => dimensions.some((d) => d.kind === 'label' && d.key !== undefined && docKey(d.key.table) === docKey(ref.table));
