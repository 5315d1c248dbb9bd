// Constant arguments of row generators in PostgreSQL's parse tree (also SQLite's, read through the
// same grammar): numbers, dates and timestamps, intervals, and "now" give or take an interval.
import { intervalLiteral, relativeSpan, shiftTime, timeLiteral, type Literal, type RelativeTime } from '../row-generators.ts';
import { nodeType, type PgNode } from './pg-parser.ts';

const DAY = 86_400_000;
const TIME_TYPES = new Set(['date', 'timestamp', 'timestamptz']);
const NOW_FUNCTIONS = new Set(['now', 'clock_timestamp', 'statement_timestamp', 'transaction_timestamp', 'current_timestamp', 'localtimestamp', 'current_date', 'date']);


function typeNameOf(cast: PgNode): string {
  const names = ((cast['typeName'] as PgNode | undefined)?.['names'] as PgNode[] | undefined) ?? [];
  return String(((names.at(-1)?.['String'] as PgNode | undefined)?.['sval']) ?? '').toLowerCase();
}

function constOf(node: unknown): { num?: number; str?: string } | undefined {
  if (nodeType(node) !== 'A_Const') return undefined;
  const c = (node as PgNode)['A_Const'] as PgNode;
  if (c['ival']) return { num: Number((c['ival'] as PgNode)['ival'] ?? 0) };
  if (c['fval']) return { num: Number((c['fval'] as PgNode)['fval']) };
  if (c['sval']) return { str: String((c['sval'] as PgNode)['sval'] ?? '') };
  return undefined;
}

function relativeTime(node: unknown): RelativeTime | undefined {
  const type = nodeType(node);
  const body = type ? ((node as PgNode)[type] as PgNode) : undefined;
  if (!type || !body) return undefined;
  if (type === 'SQLValueFunction') return { ms: 0, slack: DAY };
  if (type === 'FuncCall') {
    const name = String((((body['funcname'] as PgNode[]).at(-1)?.['String'] as PgNode | undefined)?.['sval']) ?? '').toLowerCase();
    if (name === 'date_trunc') return relativeTime((body['args'] as unknown[] | undefined)?.[1]) && { ms: 0, slack: 366 * DAY };
    return NOW_FUNCTIONS.has(name) && !(body['args'] as unknown[] | undefined)?.length ? { ms: 0, slack: DAY } : undefined;
  }
  if (type === 'TypeCast') {
    const inner = relativeTime(body['arg']);
    return inner && TIME_TYPES.has(typeNameOf(body)) ? { ms: inner.ms, slack: inner.slack + DAY } : undefined;
  }
  if (type === 'A_Expr' && body['kind'] === 'AEXPR_OP') {
    const op = String((((body['name'] as PgNode[])[0]?.['String'] as PgNode | undefined)?.['sval']) ?? '');
    return shiftTime(relativeTime(body['lexpr']), op, literalOf(body['rexpr']));
  }
  return undefined;
}

/** Reads one generator argument. */
export function literalOf(node: unknown): Literal {
  const c = constOf(node);
  if (c?.num !== undefined) return { kind: 'number', value: c.num };
  // An untyped string takes the type the call needs: a time, or an interval step.
  if (c?.str !== undefined) return timeLiteral(c.str).kind === 'time' ? timeLiteral(c.str) : intervalLiteral(c.str);
  if (nodeType(node) === 'TypeCast') {
    const cast = (node as PgNode)['TypeCast'] as PgNode;
    const inner = constOf(cast['arg']);
    const type = typeNameOf(cast);
    if (inner?.str !== undefined && type === 'interval') return intervalLiteral(inner.str);
    if (inner?.str !== undefined && TIME_TYPES.has(type)) return timeLiteral(inner.str);
    if (inner?.num !== undefined && /^(int|numeric|float|bigint|smallint)/.test(type)) return { kind: 'number', value: inner.num };
  }
  return { kind: 'other' };
}

/** Reads a generator's arguments; "now"-relative bounds become times on a common origin. */
export function generatorArgs(args: unknown[]): Literal[] {
  const [a, b] = args.slice(0, 2).map(relativeTime);
  return a && b ? relativeSpan(a, b, args.slice(2).map(literalOf)) : args.map(literalOf);
}
