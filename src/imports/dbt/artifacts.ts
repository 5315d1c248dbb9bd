// The shapes of dbt's artifacts the import reads: manifest (schema v10 to v12) and catalog (v1).
// Only the fields used are typed; everything else dbt writes is ignored.

export interface DbtColumn {
  name: string;
  description?: string;
  data_type?: string | null;
  tags?: string[];
  meta?: Record<string, unknown>;
}

/** A model, seed, snapshot, test or source of the manifest. */
export interface DbtNode {
  unique_id: string;
  resource_type: string;
  name: string;
  package_name?: string;
  database?: string | null;
  schema?: string;
  alias?: string | null;
  identifier?: string;
  relation_name?: string | null;
  description?: string;
  columns?: Record<string, DbtColumn>;
  /** In a manifest as the import keeps it (slim-manifest.ts), `columns` as JSON text instead. */
  columns_json?: string;
  tags?: string[];
  meta?: Record<string, unknown>;
  config?: { enabled?: boolean; meta?: Record<string, unknown>; tags?: string[] | string };
  depends_on?: { nodes?: string[] };
  /** Tests: the generic test and its arguments. */
  test_metadata?: { name: string; kwargs?: Record<string, unknown>; namespace?: string | null };
  attached_node?: string | null;
  column_name?: string | null;
  source_name?: string;
}

export interface DbtMeasure {
  name: string;
  agg: string;
  expr?: string | null;
  description?: string | null;
  agg_time_dimension?: string | null;
  agg_params?: { percentile?: number; use_discrete_percentile?: boolean } | null;
  non_additive_dimension?: unknown;
}

export interface DbtSemanticModel {
  unique_id: string;
  name: string;
  description?: string | null;
  node_relation?: { alias?: string; schema_name?: string; database?: string | null; relation_name?: string | null } | null;
  depends_on?: { nodes?: string[] };
  defaults?: { agg_time_dimension?: string | null } | null;
  entities?: { name: string; type: string; expr?: string | null }[];
  measures?: DbtMeasure[];
  dimensions?: { name: string; type: string; expr?: string | null; type_params?: { time_granularity?: string | null } | null }[];
}

export interface DbtMetricInput {
  name: string;
  filter?: DbtFilter | null;
  alias?: string | null;
  offset_window?: unknown;
  offset_to_grain?: unknown;
}

export interface DbtFilter {
  where_filters?: { where_sql_template: string }[];
}

export interface DbtMetric {
  unique_id: string;
  name: string;
  label?: string | null;
  description?: string | null;
  type: string;
  filter?: DbtFilter | null;
  time_granularity?: string | null;
  type_params: {
    measure?: DbtMetricInput | null;
    numerator?: DbtMetricInput | null;
    denominator?: DbtMetricInput | null;
    expr?: string | null;
    metrics?: DbtMetricInput[] | null;
    window?: unknown;
    grain_to_date?: unknown;
    cumulative_type_params?: { window?: unknown; grain_to_date?: unknown } | null;
  };
  meta?: Record<string, unknown>;
  config?: { meta?: Record<string, unknown> };
}

export interface DbtSavedQuery {
  unique_id: string;
  name: string;
  label?: string | null;
  description?: string | null;
  query_params?: { metrics?: string[]; group_by?: string[]; where?: DbtFilter | null };
}

export interface DbtExposure {
  unique_id: string;
  name: string;
  label?: string | null;
  description?: string;
  type?: string;
  url?: string | null;
  depends_on?: { nodes?: string[] };
}

export interface DbtManifest {
  metadata: { dbt_schema_version: string; generated_at?: string; project_name?: string; project_id?: string; adapter_type?: string; dbt_version?: string };
  nodes: Record<string, DbtNode>;
  sources?: Record<string, DbtNode>;
  metrics?: Record<string, DbtMetric>;
  semantic_models?: Record<string, DbtSemanticModel>;
  saved_queries?: Record<string, DbtSavedQuery>;
  exposures?: Record<string, DbtExposure>;
}

export interface DbtCatalogNode {
  unique_id?: string;
  metadata: { schema?: string; name?: string; database?: string | null; type?: string; comment?: string | null };
  columns: Record<string, { name: string; type: string; index?: number; comment?: string | null }>;
}

export interface DbtCatalog {
  metadata: { dbt_schema_version: string; generated_at?: string };
  nodes: Record<string, DbtCatalogNode>;
  sources?: Record<string, DbtCatalogNode>;
}
