-- What metadata sync learned about the objects of a warehouse beyond their columns: whether each is a
-- table, a view, a materialized view, a partition or a function defined in the warehouse, what a view
-- or partition reads (so row security follows the data, not the name), and a table's primary key (so
-- a GROUP BY on it survives a row filter). Keyed by the object's real schema and name in the warehouse.
CREATE TABLE warehouse_relations (
  org_id TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  schema_name TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('table', 'view', 'materialized_view', 'partition', 'function')),
  -- JSON array of [schema or null, name] pairs the object reads; NULL when sync could not tell.
  reads TEXT,
  -- JSON array of column names, or NULL.
  primary_key TEXT,
  synced_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, connection_id, schema_name, name),
  FOREIGN KEY (org_id, connection_id) REFERENCES connections(org_id, id) ON DELETE CASCADE
);
