// MetricFlow metrics become governed metrics on the table documentation of their semantic model:
// simple, ratio and derived metrics whose inputs sit on one table. Anything that would need more than
// one aggregate over one table (cumulative windows, period offsets, conversion funnels, medians) is
// skipped with its reason, never approximated.
import { checkExpression } from '../../sql-expression.ts';
import type { DbtManifest, DbtMeasure, DbtMetric, DbtMetricInput } from './artifacts.ts';
import type { MappedTable } from './map-tables.ts';
import { renderFilter, semanticIndex, timeColumnOf, type SemanticIndex, type SemanticModelAt } from './semantic-index.ts';
import type { Skipped } from './summary.ts';

const AGGREGATES: Record<string, (x: string) => string> = {
  sum: (x) => `SUM(${x})`,
  count: (x) => `COUNT(${x})`,
  count_distinct: (x) => `COUNT(DISTINCT ${x})`,
  average: (x) => `AVG(${x})`,
  min: (x) => `MIN(${x})`,
  max: (x) => `MAX(${x})`,
  sum_boolean: (x) => `SUM(CASE WHEN ${x} THEN 1 ELSE 0 END)`,
};

/** One metric resolved onto a table: its aggregate SQL, the filter kept apart, its time column. */
interface Resolved {
  at: SemanticModelAt;
  aggregate: string;
  filter?: string;
  time?: string;
}

type Outcome = Resolved | { problem: string };
const failed = (o: Outcome): o is { problem: string } => 'problem' in o;

/** The aggregate of a measure, the argument rows outside `filter` left out of it. */
function measureSql(measure: DbtMeasure, filter: string | undefined): string | { problem: string } {
  const make = AGGREGATES[measure.agg];
  if (!make) return { problem: `aggregation ${measure.agg} of measure ${measure.name} is not SUM, COUNT, AVG, MIN or MAX` };
  if (measure.non_additive_dimension) return { problem: `measure ${measure.name} is semi-additive (non_additive_dimension)` };
  const arg = measure.expr ?? measure.name;
  return make(filter ? `CASE WHEN ${filter} THEN ${arg} END` : arg);
}

const fold = (filter: string | undefined, more: string | undefined) => (filter && more ? `(${filter}) AND (${more})` : (filter ?? more));

function resolveSimple(index: SemanticIndex, input: DbtMetricInput | null | undefined, metricFilter: DbtMetric['filter'], inline: boolean): Outcome {
  if (!input) return { problem: 'simple metric without a measure' };
  const found = index.measure(input.name);
  if (!found) return { problem: `measure ${input.name} is on no semantic model of a documented table` };
  if ((input as { join_to_timespine?: boolean }).join_to_timespine) return { problem: `measure ${input.name} joins to the time spine` };
  const a = renderFilter(index, found.at, input.filter);
  const b = renderFilter(index, found.at, metricFilter);
  const problem = a.problem ?? b.problem;
  if (problem) return { problem };
  const filter = fold(a.sql, b.sql);
  const aggregate = measureSql(found.measure, inline ? filter : undefined);
  if (typeof aggregate !== 'string') return aggregate;
  const time = timeColumnOf(found.at, found.measure);
  return { at: found.at, aggregate, ...(filter && !inline ? { filter } : {}), ...(time ? { time } : {}) };
}

/** Resolves a metric; `inline` folds its filters into the aggregate (an input of a ratio or derived metric). */
function resolveMetric(index: SemanticIndex, byName: Map<string, DbtMetric>, m: DbtMetric, inline: boolean, depth = 0): Outcome {
  if (depth > 8) return { problem: 'metrics nest too deep' };
  const p = m.type_params;
  if (m.type === 'simple') return resolveSimple(index, p.measure, m.filter, inline);
  if (m.type === 'cumulative') return { problem: 'cumulative metric: a running total over periods is not one aggregate' };
  if (m.type === 'conversion') return { problem: 'conversion metric: a funnel between events is not one aggregate' };
  if (m.type !== 'ratio' && m.type !== 'derived') return { problem: `metric type ${m.type} is not read` };
  const inputs = m.type === 'ratio' ? [p.numerator, p.denominator] : (p.metrics ?? []);
  const parts: Resolved[] = [];
  for (const input of inputs) {
    if (!input) return { problem: `${m.type} metric without its inputs` };
    if (input.offset_window || input.offset_to_grain) return { problem: `input ${input.name} is offset in time (period over period)` };
    const def = byName.get(input.name);
    if (!def) return { problem: `input metric ${input.name} is not in the manifest` };
    const r = resolveMetric(index, byName, input.filter ? { ...def, filter: { where_filters: [...(def.filter?.where_filters ?? []), ...(input.filter.where_filters ?? [])] } } : def, true, depth + 1);
    if (failed(r)) return { problem: `input ${input.name}: ${r.problem}` };
    parts.push(r);
  }
  if (parts.length === 0) return { problem: `${m.type} metric without its inputs` };
  if (parts.some((r) => r.at.table !== parts[0]!.at.table)) return { problem: 'inputs on more than one table' };
  const own = renderFilter(index, parts[0]!.at, m.filter);
  if (own.problem) return { problem: own.problem };
  let aggregate: string;
  if (m.type === 'ratio') aggregate = `1.0 * ${parts[0]!.aggregate} / NULLIF(${parts[1]!.aggregate}, 0)`;
  else {
    let expr = p.expr ?? '';
    for (const [i, input] of inputs.entries()) expr = expr.replace(new RegExp(`\\b${input!.alias ?? input!.name}\\b`, 'g'), `(${parts[i]!.aggregate})`);
    aggregate = expr;
  }
  if (own.sql && inline) return { problem: `${m.type} metric with a filter of its own inside another metric` };
  return { at: parts[0]!.at, aggregate, ...(own.sql ? { filter: own.sql } : {}), ...(parts[0]!.time ? { time: parts[0]!.time } : {}) };
}

/** Adds the governed metrics to the documented tables; returns how many were placed. */
export function mapMetrics(manifest: DbtManifest, tables: MappedTable[], skipped: Skipped[]): { metrics: number; index: SemanticIndex } {
  const index = semanticIndex(manifest, tables);
  const byName = new Map(Object.values(manifest.metrics ?? {}).map((m) => [m.name, m]));
  let placed = 0;
  for (const m of byName.values()) {
    const r = resolveMetric(index, byName, m, false);
    const name = m.name.toLowerCase();
    const problem = failed(r) ? r.problem : !/^[a-z][a-z0-9_]{0,63}$/.test(name) ? `name ${m.name} is not a governed metric name` : (checkExpression(r.aggregate, { aggregate: true }) ?? (r.filter ? checkExpression(r.filter, { aggregate: false }) : undefined));
    if (problem || failed(r)) {
      skipped.push({ unique_id: m.unique_id, reason: problem ?? 'not expressible' });
      continue;
    }
    const { metrics: list, relation } = r.at.table;
    if (list.some((x) => x['name'] === name)) {
      skipped.push({ unique_id: m.unique_id, reason: `another metric of ${relation.schema}.${relation.name} is named ${name}` });
      continue;
    }
    list.push(metricEntry(m, name, r));
    placed++;
  }
  return { metrics: placed, index };
}

function metricEntry(m: DbtMetric, name: string, r: Resolved): Record<string, unknown> {
  const label = m.label?.trim();
  const entry: Record<string, unknown> = { name, description: m.description?.trim() || label || name };
  if (label && label.toLowerCase() !== name.replace(/_/g, ' ')) entry['synonyms'] = [label];
  entry['expression'] = r.aggregate;
  if (r.filter) entry['filter'] = r.filter;
  if (r.time) entry['time_column'] = r.time;
  if (m.time_granularity) entry['grain'] = m.time_granularity;
  entry['dbt'] = { unique_id: m.unique_id, type: m.type };
  return entry;
}
