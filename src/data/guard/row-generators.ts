// Table functions allowed in FROM, and the size of the row generators among them. A generator
// (generate_series, range) is allowed only when its size is known from constant arguments and
// small: an unbounded one is the cheapest way to stall a warehouse, and the guard can tell.
import { QueryRefused } from '../errors.ts';
import type { SqlDialect } from '../types.ts';

/** A constant argument as a parser adapter read it; `other` is anything not constant. */
export type Literal =
  | { kind: 'number'; value: number }
  | { kind: 'time'; ms: number }
  | { kind: 'interval'; ms: number; months: number }
  | { kind: 'other' };

/** Rows one generator call may produce. */
export const MAX_GENERATED_ROWS = 100_000;
/** Rows all generator calls of one statement may produce together (their product bounds a cross join). */
export const MAX_GENERATED_PRODUCT = 1_000_000;

// Table functions whose rows come from their arguments (a JSON value, an array, a string) or from a
// bounded generator; every other table function (file readers, catalog scans, SQL runners) is refused.
const TABLE_FUNCTIONS: Record<SqlDialect, Set<string>> = {
  postgresql: new Set([
    'unnest', 'generate_series', 'generate_subscripts', 'json_each', 'json_each_text', 'jsonb_each', 'jsonb_each_text', 'json_array_elements',
    'json_array_elements_text', 'jsonb_array_elements', 'jsonb_array_elements_text', 'json_to_recordset', 'jsonb_to_recordset', 'json_populate_recordset',
    'jsonb_populate_recordset', 'json_object_keys', 'jsonb_object_keys', 'regexp_matches', 'regexp_split_to_table', 'string_to_table', 'jsonb_path_query',
  ]),
  duckdb: new Set(['range', 'generate_series', 'unnest', 'json_each', 'json_tree']),
  sqlite: new Set(['json_each', 'json_tree', 'jsonb_each', 'jsonb_tree']),
  mysql: new Set(),
};

/** Generators: the end is included (generate_series) or not (range). */
const GENERATORS: Record<SqlDialect, Record<string, 'inclusive' | 'exclusive'>> = {
  postgresql: { generate_series: 'inclusive' },
  duckdb: { generate_series: 'inclusive', range: 'exclusive' },
  sqlite: {},
  mysql: {},
};

/** True when `name` may be read in FROM. */
export function isAllowedTableFunction(dialect: SqlDialect, name: string): boolean {
  return TABLE_FUNCTIONS[dialect].has(name.toLowerCase());
}

/** True when `name` is a row generator whose size the guard must bound, wherever it is called. */
export function isGenerator(dialect: SqlDialect, name: string): boolean {
  return GENERATORS[dialect][name.toLowerCase()] !== undefined;
}

const DAY = 86_400_000;

function count(span: number, step: number, mode: 'inclusive' | 'exclusive'): number {
  if (step === 0 || Number.isNaN(span) || Number.isNaN(step)) return 0;
  const n = span / step;
  if (n < 0) return 0;
  return mode === 'inclusive' ? Math.floor(n) + 1 : Math.ceil(n);
}

/** Rows a generator call yields, or undefined when its arguments are not constants the guard can read. */
export function generatedRows(dialect: SqlDialect, name: string, args: Literal[]): number | undefined {
  const mode = GENERATORS[dialect][name.toLowerCase()];
  if (!mode) return undefined;
  const [a, b, c] = args;
  if (args.every((x) => x.kind === 'number')) {
    const nums = args.map((x) => (x as { value: number }).value);
    // DuckDB's one-argument forms count from 0.
    if (nums.length === 1 && dialect === 'duckdb') return count(nums[0]!, 1, mode);
    if (nums.length < 2 || nums.length > 3) return undefined;
    return count(nums[1]! - nums[0]!, nums[2] ?? 1, mode);
  }
  if (a?.kind === 'time' && b?.kind === 'time' && c?.kind === 'interval' && args.length === 3) {
    if (c.ms * c.months < 0) return undefined;
    // A month is at least 28 days: the count is an upper bound, which is what a limit needs.
    const step = c.ms + c.months * 28 * DAY;
    return count(b.ms - a.ms, step, mode);
  }
  return undefined;
}

/** A time relative to the moment the query runs, with a slack for truncations (to a day, a year). */
export interface RelativeTime {
  ms: number;
  slack: number;
}

/** `now ± interval`: the base moved by the step; a month counts 30 days, give or take 3. */
export function shiftTime(base: RelativeTime | undefined, op: string, step: Literal): RelativeTime | undefined {
  if (!base || step.kind !== 'interval' || (op !== '+' && op !== '-')) return undefined;
  const ms = step.ms + step.months * 30 * DAY;
  return { ms: base.ms + (op === '+' ? ms : -ms), slack: base.slack + Math.abs(step.months) * 3 * DAY };
}

/** Generator arguments whose two ends are relative to now: times on that common origin, the span widened by the slack. */
export function relativeSpan(a: RelativeTime, b: RelativeTime, rest: Literal[]): Literal[] {
  const outward = (b.ms >= a.ms ? 1 : -1) * (a.slack + b.slack);
  return [{ kind: 'time', ms: a.ms }, { kind: 'time', ms: b.ms + outward }, ...rest];
}

/** Bounds the generator calls of one statement; throws QueryRefused when one is unknown or too large. */
export function boundGenerators(calls: { name: string; rows: number | undefined }[]): void {
  let product = 1;
  for (const call of calls) {
    if (call.rows === undefined) {
      throw new QueryRefused('unbounded_function', `${call.name} needs constant arguments here (numbers, or dates with an interval step) so its size is known`);
    }
    if (call.rows > MAX_GENERATED_ROWS) {
      throw new QueryRefused('unbounded_function', `${call.name} would generate ${call.rows} rows; at most ${MAX_GENERATED_ROWS} are allowed per call`);
    }
    product *= Math.max(call.rows, 1);
  }
  if (product > MAX_GENERATED_PRODUCT) {
    throw new QueryRefused('unbounded_function', `The row generators of this statement would produce up to ${product} rows together; at most ${MAX_GENERATED_PRODUCT} are allowed`);
  }
}

const UNITS: Record<string, { ms?: number; months?: number }> = {
  microsecond: { ms: 0.001 }, millisecond: { ms: 1 }, second: { ms: 1000 }, minute: { ms: 60_000 }, hour: { ms: 3_600_000 },
  day: { ms: DAY }, week: { ms: 7 * DAY }, month: { months: 1 }, year: { months: 12 }, quarter: { months: 3 }, decade: { months: 120 },
};
const UNIT_ALIASES: Record<string, string> = { us: 'microsecond', ms: 'millisecond', s: 'second', sec: 'second', min: 'minute', m: 'minute', h: 'hour', hr: 'hour', d: 'day', w: 'week', mon: 'month', y: 'year', yr: 'year' };

/** Reads an interval written as text (`'1 day'`, `'2 hours 30 minutes'`) or as a count and a unit. */
export function intervalLiteral(text: string): Literal {
  let ms = 0;
  let months = 0;
  const rest = text.trim().toLowerCase().replace(/(-?\d+(?:\.\d+)?)\s*([a-z]+)\s*/g, (_m, n: string, unit: string) => {
    const u = UNITS[unit.replace(/s$/, '')] ?? UNITS[UNIT_ALIASES[unit] ?? ''];
    if (!u) return '?';
    ms += Number(n) * (u.ms ?? 0);
    months += Number(n) * (u.months ?? 0);
    return '';
  });
  return rest === '' && text.trim() !== '' ? { kind: 'interval', ms, months } : { kind: 'other' };
}

/** Reads a date or timestamp written as text. */
export function timeLiteral(text: string): Literal {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text.trim());
  if (!m) return { kind: 'other' };
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}Z`);
  return Number.isNaN(ms) ? { kind: 'other' } : { kind: 'time', ms };
}
