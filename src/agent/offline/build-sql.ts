// Turns a plan into one SELECT (DuckDB/PostgreSQL syntax) with joins along documented
// relationships, literal dates and safely quoted values; also the plan's human title.
import type { Plan } from './plan-question.ts';
import { joinPath, tableKey, type Schema } from './vocabulary.ts';

const ident = (s: string) => (/^[a-z_][a-z0-9_]*$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`);
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

export interface BuiltQuery {
  sql: string;
  connectionId: string;
  title: string;
  /** Output column of the measure, and of the first dimension when grouped. */
  valueColumn: string;
  labelColumn: string | undefined;
  timeSeries: boolean;
}

/** Builds the SQL of a plan. */
export function buildSql(plan: Plan, schema: Schema): BuiltQuery {
  const aliases = new Map<string, string>([[tableKey(plan.subject), 't0']]);
  const joins: string[] = [];
  let fanOut = false;
  const need = [...plan.dimensions.map((d) => d.ref.table), ...plan.filters.map((f) => f.ref.table), ...(plan.measure ? [plan.measure.table] : [])];
  for (const table of need) {
    for (const e of joinPath(schema, tableKey(plan.subject), tableKey(table)) ?? []) {
      if (aliases.has(e.to)) continue;
      const alias = `t${aliases.size}`;
      aliases.set(e.to, alias);
      fanOut ||= e.fanOut;
      joins.push(`JOIN ${e.to.split('.').map(ident).join('.')} AS ${alias} ON ${aliases.get(e.from)}.${ident(e.fromColumn)} = ${alias}.${ident(e.toColumn)}`);
    }
  }
  const col = (ref: { table: { schema: string; name: string }; column: { name: string } }) => `${aliases.get(tableKey(ref.table))}.${ident(ref.column.name)}`;

  const select: string[] = [];
  const group: number[] = [];
  const names: string[] = [];
  for (const d of plan.dimensions) {
    const name = d.kind === 'bucket' ? d.bucket : d.ref.column.name;
    select.push(`${d.kind === 'bucket' ? `date_trunc('${d.bucket}', ${col(d.ref)})` : col(d.ref)} AS ${ident(name)}`);
    names.push(name);
    group.push(select.length);
  }
  const valueColumn =
    plan.aggregate === 'count' ? `${singular(plan.subject.name)}_count` : `${plan.aggregate === 'sum' ? 'total' : plan.aggregate}_${plan.measure!.column.name}`.replace(/^total_total_/, 'total_');
  const firstColumn = plan.subject.columns[0]?.name;
  const measureSql =
    plan.aggregate === 'count'
      ? fanOut && firstColumn
        ? `COUNT(DISTINCT t0.${ident(firstColumn)})`
        : 'COUNT(*)'
      : plan.aggregate === 'avg'
        ? `ROUND(AVG(${col(plan.measure!)}), 2)`
        : `${plan.aggregate.toUpperCase()}(${col(plan.measure!)})`;
  select.push(`${measureSql} AS ${ident(valueColumn)}`);

  const where: string[] = [];
  for (const f of plan.filters) {
    if (f.kind === 'values') where.push(f.values.length === 1 ? `${col(f.ref)} = ${literal(f.values[0]!)}` : `${col(f.ref)} IN (${f.values.map(literal).join(', ')})`);
    else if (f.kind === 'compare') where.push(`${col(f.ref)} ${f.op} ${f.value}`);
    else {
      where.push(`${col(f.ref)} >= DATE '${f.period.from}'`);
      if (f.period.to) where.push(`${col(f.ref)} < DATE '${f.period.to}'`);
    }
  }
  const lines = [`SELECT ${select.join(', ')}`, `FROM ${ident(plan.subject.schema)}.${ident(plan.subject.name)} AS t0`, ...joins];
  if (where.length > 0) lines.push(`WHERE ${where.join(' AND ')}`);
  if (group.length > 0) lines.push(`GROUP BY ${group.join(', ')}`);
  const valuePos = select.length;
  if (plan.order === 'time') lines.push(`ORDER BY ${group.join(', ')}`);
  else if (plan.order) lines.push(`ORDER BY ${valuePos} ${plan.order.toUpperCase()}${group.length > 0 ? `, ${group.join(', ')}` : ''}`);
  if (plan.limit !== undefined) lines.push(`LIMIT ${plan.limit}`);
  return {
    sql: lines.join('\n'),
    connectionId: plan.subject.connection,
    title: titleOf(plan),
    valueColumn,
    labelColumn: names[0],
    timeSeries: plan.dimensions.some((d) => d.kind === 'bucket'),
  };
}

const singular = (s: string) => (s.endsWith('ies') ? `${s.slice(0, -3)}y` : s.endsWith('s') ? s.slice(0, -1) : s);
const spaced = (s: string) => s.replace(/_/g, ' ');

/** "Total total amount of orders by country in 2024 (status completed)". */
export function titleOf(plan: Plan): string {
  const what =
    plan.aggregate === 'count'
      ? `Number of ${spaced(plan.subject.name)}`
      : `${{ sum: 'Total', avg: 'Average', min: 'Minimum', max: 'Maximum' }[plan.aggregate]} ${spaced(plan.measure!.column.name).replace(/^total /, '')}`;
  const parts = [what];
  if (plan.dimensions.length > 0) parts.push(`by ${plan.dimensions.map((d) => (d.kind === 'bucket' ? d.bucket : spaced(d.ref.column.name))).join(' and ')}`);
  for (const f of plan.filters) {
    if (f.kind === 'values') parts.push(`where ${spaced(f.ref.column.name)} is ${f.values.join(' or ')}`);
    else if (f.kind === 'compare') parts.push(`where ${spaced(f.ref.column.name)} ${f.op === '>' ? 'is over' : 'is under'} ${f.value}`);
    else parts.push(f.period.label);
  }
  if (plan.limit !== undefined && plan.dimensions.length > 0) parts.unshift(plan.order === 'asc' ? `Bottom ${plan.limit}:` : `Top ${plan.limit}:`);
  return parts.join(' ');
}
