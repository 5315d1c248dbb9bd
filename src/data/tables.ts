// The data plane's tables in the service database (migrations 0040 and 0043) as the query builder
// sees them, and the executor typed with them. Warehouses are not here: drivers talk to those.
import type { Executor } from '../store/index.ts';

export interface ConnectionRow {
  org_id: string;
  id: string;
  name: string;
  type: string;
  settings: string;
  secret_sealed: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface QueryLogRow {
  id: string;
  org_id: string;
  user_id: string | null;
  connection_id: string;
  environment_id: string | null;
  sql: string;
  /** JSON list of the values bound to `sql`'s placeholders (a dashboard's filters); null when none. */
  params: string | null;
  tables: string;
  status: 'ok' | 'refused' | 'failed';
  error_code: string | null;
  row_count: number;
  duration_ms: number;
  source: string;
  created_at: number;
}

export interface DataTables {
  connections: ConnectionRow;
  query_log: QueryLogRow;
  query_log_tables: { query_id: string; org_id: string; connection_id: string; table_name: string };
  user_attributes: { org_id: string; user_id: string; name: string; value: string };
  groups: { org_id: string; id: string; name: string };
  group_members: { org_id: string; group_id: string; user_id: string };
  warehouse_relations: {
    org_id: string;
    connection_id: string;
    schema_name: string;
    name: string;
    kind: 'table' | 'view' | 'materialized_view' | 'partition' | 'function';
    reads: string | null;
    primary_key: string | null;
    synced_at: number;
  };
}

/** The service database as the data plane's store code sees it. */
export type DataStore = Executor<DataTables>;
