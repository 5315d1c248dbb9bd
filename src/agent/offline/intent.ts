// What a question asks, in the knowledge's terms but before any table is chosen: the measure, its
// groups, filters, period and ranking, the tables and columns it names, and the words not understood.
import type { TableDocument } from '../ports.ts';
import type { Period, PeriodBucket } from './periods.ts';
import type { ChartRequest } from './chart-request.ts';
import type { Currency, Display } from './display.ts';
import type { ChangeWords } from './change.ts';
import type { Mention } from './vocabulary.ts';
import type { WeekDays } from './week-days.ts';

export type Aggregate = 'count' | 'sum' | 'avg' | 'median' | 'min' | 'max';
/** What a time breakdown groups by: periods, or `weekday`, the day of the week (a cycle through every week, Monday first). */
export type Bucket = PeriodBucket | 'weekday';
/** Whether a breakdown is by periods of time (a series, a change from one to the next), not by the day of the week. */
export const isPeriod = (b: Bucket): b is PeriodBucket => b !== 'weekday';
export type CompareOp = '>' | '<' | '>=' | '<=';
export type ColumnMention = Extract<Mention, { kind: 'column' }>;
export type ValueMention = Extract<Mention, { kind: 'value' }>;
export type MetricMention = Extract<Mention, { kind: 'metric' }>;

export type Measure =
  /** A governed metric; several when the same words name metrics of several tables. */
  | { kind: 'metric'; metrics: MetricMention[] }
  /** `implied`: no word asked for the aggregate ("unit price by category" is summed only by default). */
  | { kind: 'column'; aggregate: Exclude<Aggregate, 'count'>; columns: ColumnMention[]; implied?: true }
  | { kind: 'count'; tables: TableDocument[] }
  /** The first or last date: of a named date column, or of a named table's date. */
  | { kind: 'extreme'; aggregate: 'min' | 'max'; columns: ColumnMention[]; tables: TableDocument[] }
  /** The rows of a table ("list customers in Germany"), newest or oldest first by its date, the first `limit`. */
  | { kind: 'rows'; tables: TableDocument[]; newest?: 'asc' | 'desc'; largest?: 'asc' | 'desc'; limit?: number };

/** "average daily ..." (per-unit.ts): the unit averaged over, as asked, and the day the question was read (a running period ends there). */
export interface PerUnit {
  bucket: PeriodBucket;
  word: string;
  today: string;
}

/** "revenue per customer" (per-each.ts): the table named after "per", as the question says it. */
export interface PerEach {
  tables: TableDocument[];
  word: string;
}

/** "customers with more than 5 orders" (related-count.ts): the rows of `owners` kept by how many rows of `counted` point to each. */
export interface RelatedCount {
  owners: TableDocument[];
  counted: TableDocument[];
  op: CompareOp | '=';
  value: number;
  /** Where the words of the rows counted start: a comparison read on them is of the rows counted ("5 orders over $2,000"). */
  at: number;
}

/** A measure's bound for each group kept: "more than 100", "over 1m euros". */
export interface Having {
  op: CompareOp | '=';
  value: number;
  currency?: Currency;
}

export type Group = { kind: 'column'; columns: ColumnMention[] } | { kind: 'bucket'; bucket: Bucket } | { kind: 'label'; tables: TableDocument[] };

export interface Intent {
  measure: Measure | undefined;
  /** The measure was asked for in words (a metric, "how many", "average"...), not only implied. */
  explicit: boolean;
  groups: Group[];
  /** Value filters, one entry per column: the mentions of its values. */
  values: ValueMention[][];
  /** "total amount over 500", "orders over 2000 dollars": a currency named is checked against the column's. */
  compares: { columns: ColumnMention[]; op: CompareOp; value: number; currency?: Currency }[];
  period: Period | undefined;
  /** "on weekends", "on Saturdays": days of the week kept, by the date the period would apply to (week-days.ts). */
  weekDays?: WeekDays;
  /** "what percentage of orders were cancelled": the part the values after the measure keep (share-of.ts); `values` narrow the whole. */
  share?: { word: string; part: ValueMention[][] };
  /** "revenue growth in 2025": the two periods compared, with the change between them in the text (change.ts). */
  change?: ChangeWords;
  /** "average daily ...": the period's total divided by its days (per-unit.ts), not grouped by day. */
  perUnit?: PerUnit;
  /** "revenue per customer": the total divided by the rows of a table it spreads over (per-each.ts). */
  perEach?: PerEach;
  /** "customers with more than 5 orders": rows kept by a count of another table's rows (related-count.ts). */
  related?: RelatedCount;
  /** "countries with more than 100 customers": the groups kept by their measure (kept-groups.ts). */
  having?: Having;
  /** The units the answer is asked in ("in thousands", "as a percentage"). */
  display?: Display;
  /** The chart it is asked to be drawn as ("as a line chart", "plot ..."). */
  chart?: ChartRequest;
  /** Date columns named in the question ("signed up in 2024"), which the period applies to. */
  periodColumns: ColumnMention[];
  /**
   * `offset`: rows skipped before the ones listed ("the second most": 1); `within`: "top 3 products
   * per category", the first group ranked within each combination of the others.
   */
  ranking: { dir: 'asc' | 'desc'; limit?: number; offset?: number; within?: true } | undefined;
  /** Tables the question names: each must take part in the plan. */
  named: TableDocument[][];
  /** Columns named without a role: each must take part in the plan (as a value's column...). */
  loose: ColumnMention[][];
  /** Words neither understood nor fillers. */
  unknown: string[];
  /** Why words that were read still do not say what to answer ("which customers bought the most": of what?). */
  unclear?: string;
  /** Opens like a follow-up ("and ...", "what about ..."). */
  followUp: boolean;
}
