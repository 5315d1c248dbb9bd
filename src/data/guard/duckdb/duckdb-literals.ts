// Constant arguments of row generators in DuckDB's serialized tree: numbers, dates and timestamps,
// intervals (`INTERVAL '1 day'`, `INTERVAL 1 DAY`), and "now" give or take an interval.
import { intervalLiteral, relativeSpan, shiftTime, timeLiteral, type Literal, type RelativeTime } from '../row-generators.ts';
import { exactNumber } from './duckdb-json.ts';

type Node = Record<string, unknown>;
const DAY = 86_400_000;
const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE)$/;
const NOW = new Set(['now', 'current_timestamp', 'get_current_timestamp', 'current_date', 'today', 'transaction_timestamp', 'current_localtimestamp', 'localtimestamp']);
const INTERVAL_FUNCTIONS: Record<string, string> = {
  to_microseconds: 'microsecond', to_milliseconds: 'millisecond', to_seconds: 'second', to_minutes: 'minute', to_hours: 'hour',
  to_days: 'day', to_weeks: 'week', to_months: 'month', to_years: 'year', to_quarters: 'quarter', to_decades: 'decade',
};

const typeId = (n: Node | undefined) => String(((n?.['type'] as Node | undefined)?.['id']) ?? (n?.['id'] ?? ''));

function constant(n: Node): { num?: number; str?: string } | undefined {
  if (n['class'] === 'CAST' && /INT|DOUBLE|FLOAT/.test(typeId(n['cast_type'] as Node))) return constant(n['child'] as Node);
  // `INTERVAL 6 DAY` arrives as to_days(CAST(trunc(CAST(6 AS DOUBLE)) AS INTEGER)).
  if (n['class'] === 'FUNCTION' && n['function_name'] === 'trunc' && (n['children'] as Node[]).length === 1) return constant((n['children'] as Node[])[0]!);
  if (n['class'] !== 'CONSTANT') return undefined;
  const value = n['value'] as Node;
  if (value['is_null']) return undefined;
  const id = typeId(value);
  if (NUMERIC.test(id)) return { num: exactNumber(value['value']) };
  if (id === 'VARCHAR') return { str: String(value['value']) };
  return undefined;
}

function relative(n: Node): RelativeTime | undefined {
  if (n['class'] === 'FUNCTION' && NOW.has(String(n['function_name'])) && !(n['children'] as unknown[]).length) return { ms: 0, slack: DAY };
  // The parser leaves current_date and friends as column references; the binder makes them clocks.
  const column = n['class'] === 'COLUMN_REF' ? (n['column_names'] as string[]) : [];
  if (column.length === 1 && NOW.has(column[0]!.toLowerCase())) return { ms: 0, slack: DAY };
  if (n['class'] === 'CAST' && /DATE|TIMESTAMP/.test(typeId(n['cast_type'] as Node))) {
    const inner = relative(n['child'] as Node);
    return inner && { ms: inner.ms, slack: inner.slack + DAY };
  }
  const op = String(n['function_name']);
  if (n['class'] === 'FUNCTION' && n['is_operator']) {
    const [a, b] = n['children'] as Node[];
    return shiftTime(a && relative(a), op, b ? literalOf(b) : { kind: 'other' });
  }
  return undefined;
}

/** Reads one generator argument. */
export function literalOf(n: Node): Literal {
  const c = constant(n);
  if (c?.num !== undefined) return { kind: 'number', value: c.num };
  if (n['class'] === 'CAST') {
    const inner = constant(n['child'] as Node);
    const to = typeId(n['cast_type'] as Node);
    if (inner?.str !== undefined && to === 'INTERVAL') return intervalLiteral(inner.str);
    if (inner?.str !== undefined && /^(DATE|TIMESTAMP|TIMESTAMP WITH TIME ZONE|TIMESTAMP_S|TIMESTAMP_MS)$/.test(to)) return timeLiteral(inner.str);
  }
  const unit = n['class'] === 'FUNCTION' ? INTERVAL_FUNCTIONS[String(n['function_name'])] : undefined;
  const arg = unit ? constant(((n['children'] as Node[])[0] ?? {}) as Node) : undefined;
  if (unit && arg?.num !== undefined) return intervalLiteral(`${arg.num} ${unit}`);
  return { kind: 'other' };
}

/** Reads a generator's arguments; "now"-relative bounds become times on a common origin. */
export function generatorArgs(args: Node[]): Literal[] {
  const [a, b] = args.slice(0, 2).map(relative);
  return a && b ? relativeSpan(a, b, args.slice(2).map(literalOf)) : args.map(literalOf);
}
