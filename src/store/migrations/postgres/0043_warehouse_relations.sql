-- PostgreSQL twin of ../0043_warehouse_relations.sql.
CREATE TABLE warehouse_relations (
  org_id TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  schema_name TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('table', 'view', 'materialized_view', 'partition', 'function')),
  reads TEXT,
  primary_key TEXT,
  synced_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, connection_id, schema_name, name),
  FOREIGN KEY (org_id, connection_id) REFERENCES connections(org_id, id) ON DELETE CASCADE
);
