// Grows one plan from its subject table: joins the tables its columns live in, picks the nearest of
// several tables that share a column name, and finds the date that periods apply to.
import type { TableDocument } from '../ports.ts';
import { columnReferences, tokenizeExpression, type ColumnReference } from '../../sql-expression.ts';
import { docKey, joinPath, type JoinEdge } from './joins.ts';
import type { ColumnRef } from './plan.ts';
import { isTemporal, tableNamed, type Schema } from './vocabulary.ts';

export class PlanBuilder {
  readonly joins: JoinEdge[] = [];
  readonly tables: TableDocument[];
  /** Columns the plan uses, by table key and name. */
  private readonly used = new Set<string>();

  constructor(
    readonly schema: Schema,
    readonly subject: TableDocument,
    /** Counts may cross a join that repeats rows: they count distinct keys. */
    readonly allowFanOut: boolean,
  ) {
    this.tables = [subject];
  }

  get fannedOut(): boolean {
    return this.joins.some((e) => e.fanOut);
  }

  private path(table: TableDocument): JoinEdge[] | undefined {
    return joinPath(this.schema, this.subject, table, { fanOut: false }) ?? (this.allowFanOut ? joinPath(this.schema, this.subject, table, { fanOut: true }) : undefined);
  }

  /** Joins `table` in; false when no documented relationship reaches it. */
  join(table: TableDocument): boolean {
    const path = this.path(table);
    if (!path) return false;
    for (const e of path) {
      if (this.has(e.to)) continue;
      this.joins.push(e);
      this.tables.push(e.to);
    }
    return true;
  }

  has(table: TableDocument): boolean {
    return this.tables.some((t) => docKey(t) === docKey(table));
  }

  /** Records a column as used, joining its table; the reference, or undefined when unreachable. */
  use(ref: ColumnRef): ColumnRef | undefined {
    if (!this.join(ref.table)) return undefined;
    this.used.add(`${docKey(ref.table)}\u0000${ref.column.name}`);
    return ref;
  }

  uses(ref: ColumnRef): boolean {
    return this.used.has(`${docKey(ref.table)}\u0000${ref.column.name}`);
  }

  /** The nearest of several columns of the same words; undefined when none is reachable or two tables are equally near. */
  pick(refs: ColumnRef[]): ColumnRef | undefined {
    const reachable = refs
      .map((ref) => ({ ref, d: this.path(ref.table)?.length }))
      .filter((x): x is { ref: ColumnRef; d: number } => x.d !== undefined)
      .sort((a, b) => a.d - b.d);
    const [best, next] = reachable;
    if (!best || (next && next.d === best.d && docKey(next.ref.table) !== docKey(best.ref.table))) return undefined;
    return this.use(best.ref);
  }

  /** A metric's `column` (of the subject) or `table.column` (of a table it joins). */
  column(ref: ColumnReference): ColumnRef | undefined {
    const table = ref.table ? tableNamed(this.schema, this.subject.connection, ref.table) : this.subject;
    if (!table) return undefined;
    const documented = table.columns.find((c) => c.name.toLowerCase() === ref.column.toLowerCase());
    if (!documented && table.columns.length > 0) return undefined;
    return this.use({ table, column: documented ?? { name: ref.column } });
  }

  /** Every column a metric's expression and filter read, joined in; false when one is out of reach. */
  metricColumns(expression: string, filter: string | undefined): boolean {
    for (const source of [expression, filter ?? '']) {
      const tokens = tokenizeExpression(source);
      if (typeof tokens === 'string') return false;
      if (!columnReferences(tokens).every((ref) => this.column(ref))) return false;
    }
    return true;
  }

  /**
   * The date of the subject or of a table the question names, when there is exactly one; with none,
   * the only date of the nearest table reachable without repeating rows. Two candidates are unclear:
   * "customers who ordered in 2025" is not "customers who signed up in 2025".
   */
  ownDate(named: TableDocument[]): ColumnRef | undefined {
    const tables = [this.subject, ...named.filter((t) => docKey(t) !== docKey(this.subject))];
    const dates = [...new Map(tables.flatMap((table) => table.columns.filter(isTemporal).map((column) => [`${docKey(table)}.${column.name}`, { table, column }] as const))).values()];
    if (dates.length > 1) return undefined;
    if (dates.length === 1) return this.use(dates[0]!);
    const byDistance = this.schema.tables
      .map((table) => ({ table, d: joinPath(this.schema, this.subject, table, { fanOut: false })?.length, dates: table.columns.filter(isTemporal) }))
      .filter((x): x is { table: TableDocument; d: number; dates: typeof x.dates } => x.d !== undefined && x.dates.length > 0)
      .sort((a, b) => a.d - b.d);
    const [best, next] = byDistance;
    if (!best || best.dates.length > 1 || (next && next.d === best.d)) return undefined;
    return this.use({ table: best.table, column: best.dates[0]! });
  }

  /** The columns a metric's filter reads, as references into the plan's tables. */
  filterColumns(filter: string | undefined): ColumnRef[] {
    const tokens = tokenizeExpression(filter ?? '');
    if (typeof tokens === 'string') return [];
    return columnReferences(tokens).flatMap((ref) => {
      const table = ref.table ? tableNamed(this.schema, this.subject.connection, ref.table) : this.subject;
      const column = table?.columns.find((c) => c.name.toLowerCase() === ref.column.toLowerCase());
      return table && column ? [{ table, column }] : [];
    });
  }
}
