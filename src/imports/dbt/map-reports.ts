// Saved queries become reports when all their metrics are governed metrics of one table and their
// groupings are columns of it; exposures have no query to run, so they are skipped with that reason.
import type { DbtManifest, DbtSavedQuery } from './artifacts.ts';
import type { Skipped } from './summary.ts';
import type { MappedTable } from './map-tables.ts';

export interface MappedReport {
  unique_id: string;
  id: string;
  doc: Record<string, unknown>;
}

const GROUP = /^\s*(TimeDimension|Dimension|Entity)\(\s*'([^']+)'(?:\s*,\s*'([^']+)')?\s*\)\s*$/;
/** An identifier quoted for the connection's dialect (MySQL and MariaDB use backticks). */
const quoter = (dialect: string) => (dialect === 'mysql' ? (name: string) => `\`${name.replace(/`/g, '``')}\`` : (name: string) => `"${name.replace(/"/g, '""')}"`);

function groupColumn(quote: (n: string) => string, columns: { name: string }[], metricTime: string | undefined, g: string): string | undefined {
  const m = GROUP.exec(g);
  if (!m) return undefined;
  const name = m[2]!.split('__').pop()!;
  const grain = m[3];
  const column = name === 'metric_time' ? metricTime : columns.find((c) => c.name === name || c.name === `${name}_id`)?.name;
  if (!column) return undefined;
  return m[1] === 'TimeDimension' && grain ? `DATE_TRUNC('${grain}', ${quote(column)}) AS ${quote(name)}` : quote(column);
}

function reportOf(q: DbtSavedQuery, tables: MappedTable[], connection: string, quote: (n: string) => string): MappedReport | string {
  const names = q.query_params?.metrics ?? [];
  if (q.query_params?.where?.where_filters?.length) return 'saved query with a where filter';
  const table = tables.find((t) => names.length > 0 && names.every((n) => t.metrics.some((m) => m['name'] === n)));
  if (!table) return 'its metrics are not all governed metrics of one documented table';
  const metrics = (table.metrics as { name: string; expression: string; filter?: string; time_column?: string }[]).filter((m) => names.includes(m.name));
  if (metrics.some((m) => m.filter)) return 'a metric of it has a filter';
  // Its documentation is built on reading: once for the report, not once per grouping.
  const columns = table.doc['columns'] as { name: string }[];
  const groups = (q.query_params?.group_by ?? []).map((g) => groupColumn(quote, columns, metrics[0]!.time_column, g));
  if (groups.some((g) => g === undefined)) return 'a grouping is not a column of the table';
  const dims = groups as string[];
  const select = [...dims, ...metrics.map((m) => `${m.expression} AS ${m.name}`)].join(', ');
  const by = dims.length > 0 ? ` GROUP BY ${dims.map((_, i) => i + 1).join(', ')} ORDER BY 1` : '';
  const sql = `SELECT ${select} FROM ${quote(table.relation.schema)}.${quote(table.relation.name)}${by}`;
  const id = `dbt-${q.name.toLowerCase().replace(/[^a-z0-9_]+/g, '-')}`.slice(0, 128);
  return { unique_id: q.unique_id, id, doc: { title: q.label || q.name, description: q.description ?? '', sql, connection } };
}

/** Reports of the saved queries that map; the rest, and every exposure, skipped with the reason. */
export function mapReports(manifest: DbtManifest, tables: MappedTable[], a: { connection: string; dialect: string }, skipped: Skipped[]): MappedReport[] {
  const out: MappedReport[] = [];
  for (const q of Object.values(manifest.saved_queries ?? {})) {
    const r = reportOf(q, tables, a.connection, quoter(a.dialect));
    if (typeof r === 'string') skipped.push({ unique_id: q.unique_id, reason: r });
    else out.push(r);
  }
  for (const e of Object.values(manifest.exposures ?? {})) skipped.push({ unique_id: e.unique_id, reason: 'exposure: no query to run as a report' });
  return out;
}
