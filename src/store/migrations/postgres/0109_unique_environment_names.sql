-- PostgreSQL twin of ../0109_unique_environment_names.sql. lower() under the "C" collation folds
-- A-Z only, as SQLite's does (asciiLower).
CREATE TEMP TABLE environment_renames AS
  SELECT id, name || ' (' || n || ')' AS name FROM (
    SELECT id, name, row_number() OVER (PARTITION BY org_id, lower(name COLLATE "C") ORDER BY created_at, id) AS n FROM environments
  ) AS ranked WHERE n > 1;
UPDATE environments SET name = (SELECT r.name FROM environment_renames r WHERE r.id = environments.id) WHERE id IN (SELECT id FROM environment_renames);
DROP TABLE environment_renames;

CREATE TEMP TABLE environment_renames AS
  SELECT id, name || ' (' || id || ')' AS name FROM (
    SELECT id, name, row_number() OVER (PARTITION BY org_id, lower(name COLLATE "C") ORDER BY created_at, id) AS n FROM environments
  ) AS ranked WHERE n > 1;
UPDATE environments SET name = (SELECT r.name FROM environment_renames r WHERE r.id = environments.id) WHERE id IN (SELECT id FROM environment_renames);
DROP TABLE environment_renames;

CREATE UNIQUE INDEX environments_org_name ON environments(org_id, lower(name COLLATE "C"));
