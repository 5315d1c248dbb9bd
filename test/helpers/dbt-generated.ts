// A generated dbt project of any size, for the import's time and memory tests and bench/import.ts:
// `models` models of `columns` columns (one described, one tested unique and not null), each 20th with
// a semantic model, and `metrics` simple metrics spread over the semantic models' measures.
import type { WarehouseRelation } from '../../src/imports/dbt/index.ts';

export interface GeneratedProject {
  manifest: Record<string, unknown>;
  relations: WarehouseRelation[];
}

const name = (i: number) => `model_${String(i).padStart(5, '0')}`;

/** The manifest (schema v12, Postgres-style relation names) and the relations a warehouse would have. */
export function generateProject({ models, columns, metrics, generatedAt = '2026-01-01T00:00:00Z' }: { models: number; columns: number; metrics: number; generatedAt?: string }): GeneratedProject {
  const nodes: Record<string, unknown> = {};
  const relations: WarehouseRelation[] = [];
  const semantic: Record<string, unknown> = {};
  const metricDefs: Record<string, unknown> = {};
  for (let i = 0; i < models; i++) {
    const id = `model.gen.${name(i)}`;
    const cols = Array.from({ length: columns }, (_, c) => (c === 0 ? 'id' : c === 1 ? 'created_at' : `col_${c}`));
    nodes[id] = {
      unique_id: id, resource_type: 'model', name: name(i), package_name: 'gen', database: 'warehouse', schema: 'analytics', alias: name(i),
      relation_name: `"warehouse"."analytics"."${name(i)}"`, description: `Model ${i}: what one row of it is.`, tags: ['generated'], meta: {},
      config: { enabled: true, materialized: 'table', meta: {} },
      columns: Object.fromEntries(cols.map((c) => [c, { name: c, description: `The ${c} of model ${i}.`, meta: {}, tags: [] }])),
      depends_on: { nodes: i > 0 ? [`model.gen.${name(i - 1)}`] : [] },
    };
    nodes[`test.gen.unique_${name(i)}_id`] = { unique_id: `test.gen.unique_${name(i)}_id`, resource_type: 'test', name: 'unique', test_metadata: { name: 'unique', kwargs: { column_name: 'id' } }, attached_node: id, column_name: 'id', depends_on: { nodes: [id] } };
    relations.push({ schema: 'analytics', name: name(i), columns: cols.map((c) => ({ name: c, type: c === 'id' ? 'INTEGER' : c === 'created_at' ? 'TIMESTAMP' : 'DECIMAL(12,2)' })) });
    if (i % 20 === 0) {
      semantic[`semantic_model.gen.sm_${i}`] = {
        unique_id: `semantic_model.gen.sm_${i}`, name: `sm_${i}`, depends_on: { nodes: [id] }, defaults: { agg_time_dimension: 'created_at' },
        entities: [{ name: `e_${i}`, type: 'primary', expr: 'id' }],
        measures: Array.from({ length: Math.min(columns - 2, 10) }, (_, k) => ({ name: `m_${i}_${k}`, agg: 'sum', expr: `col_${k + 2}` })),
        dimensions: [{ name: 'created_at', type: 'time', type_params: { time_granularity: 'day' } }],
      };
    }
  }
  const measures = Object.values(semantic).flatMap((s) => (s as { measures: { name: string }[] }).measures.map((m) => m.name));
  for (let k = 0; k < metrics && measures.length > 0; k++) {
    const measure = measures[k % measures.length]!;
    metricDefs[`metric.gen.metric_${k}`] = { unique_id: `metric.gen.metric_${k}`, name: `metric_${k}`, label: `Metric ${k}`, description: `Generated metric ${k}.`, type: 'simple', type_params: { measure: { name: measure } } };
  }
  const manifest = {
    metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json', dbt_version: '1.10.0', generated_at: generatedAt, project_name: 'gen', adapter_type: 'postgres' },
    nodes, sources: {}, metrics: metricDefs, semantic_models: semantic, saved_queries: {}, exposures: {},
  };
  return { manifest, relations };
}
