// The semantic layer as lookups: measures and dimensions by name, each with the semantic model and
// the documented table it belongs to, and where-filter templates rendered as column expressions.
import type { DbtFilter, DbtManifest, DbtMeasure, DbtSemanticModel } from './artifacts.ts';
import type { MappedTable } from './map-tables.ts';

export interface SemanticModelAt {
  model: DbtSemanticModel;
  table: MappedTable;
}

export interface SemanticIndex {
  models: SemanticModelAt[];
  measure(name: string): { at: SemanticModelAt; measure: DbtMeasure } | undefined;
  /** Semantic models whose table is not documented (no relation on the connection), by name. */
  missing: Map<string, string>;
}

/** Semantic models placed on the documented table of the model they describe. */
export function semanticIndex(manifest: DbtManifest, tables: MappedTable[]): SemanticIndex {
  const byNode = new Map(tables.map((t) => [t.node.unique_id, t]));
  const models: SemanticModelAt[] = [];
  const missing = new Map<string, string>();
  for (const model of Object.values(manifest.semantic_models ?? {})) {
    const table = (model.depends_on?.nodes ?? []).map((id) => byNode.get(id)).find((t) => t !== undefined);
    if (table) models.push({ model, table });
    else missing.set(model.name, model.unique_id);
  }
  const measures = new Map<string, { at: SemanticModelAt; measure: DbtMeasure }>();
  for (const at of models) for (const measure of at.model.measures ?? []) if (!measures.has(measure.name)) measures.set(measure.name, { at, measure });
  return { models, measure: (name) => measures.get(name), missing };
}

/** The column expression of a dimension (or entity) of a semantic model, by name. */
function columnOf(model: DbtSemanticModel, name: string): string | undefined {
  const dim = model.dimensions?.find((d) => d.name === name);
  if (dim) return dim.expr ?? dim.name;
  const entity = model.entities?.find((e) => e.name === name);
  return entity ? (entity.expr ?? entity.name) : undefined;
}

/** The time column a measure's periods apply to: its own, else its semantic model's default. */
export function timeColumnOf(at: SemanticModelAt, measure: DbtMeasure): string | undefined {
  const name = measure.agg_time_dimension ?? at.model.defaults?.agg_time_dimension ?? undefined;
  return name ? columnOf(at.model, name) : undefined;
}

const TEMPLATE = /\{\{\s*(Dimension|TimeDimension|Entity)\(\s*'([^']+)'(?:\s*,\s*'[^']*')?\s*\)(?:\.[a-z_]+\([^)]*\))*\s*\}\}/g;

/**
 * A where filter as SQL over the table's columns (`table.column` for a dimension of a joined
 * semantic model), or a reason it cannot be: an unknown dimension, a template not understood.
 */
export function renderFilter(index: SemanticIndex, at: SemanticModelAt, filter: DbtFilter | null | undefined): { sql?: string; problem?: string } {
  const parts: string[] = [];
  for (const w of filter?.where_filters ?? []) {
    let problem: string | undefined;
    const sql = w.where_sql_template.replace(TEMPLATE, (_all, kind: string, ref: string) => {
      const name = ref.split('__').pop()!;
      if (kind === 'TimeDimension' && name === 'metric_time') return timeColumnOf(at, { name: '', agg: '' }) ?? ((problem = 'metric_time without a time dimension'), '');
      const own = columnOf(at.model, name);
      if (own) return own;
      const other = index.models.find((m) => m !== at && columnOf(m.model, name) !== undefined);
      if (other) return `${other.table.relation.name}.${columnOf(other.model, name)}`;
      problem = `filter names ${ref}, which no semantic model of a documented table has`;
      return '';
    });
    if (problem) return { problem };
    if (sql.includes('{{')) return { problem: `filter template not understood: ${w.where_sql_template.trim()}` };
    parts.push(sql.trim());
  }
  return parts.length === 0 ? {} : { sql: parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' AND ') };
}
