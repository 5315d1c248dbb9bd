-- Issue 35: an environment's name is unique within its organization, ignoring ASCII case, so that
-- `sextant env use <name>` names one environment. Existing duplicates keep their oldest holder's name;
-- each later one gets " (2)", " (3)"... in creation order, and in the unlikely case that this too is
-- taken, its id instead. Renames go through a temporary table so no row sees another's new name.
CREATE TEMP TABLE environment_renames AS
  SELECT id, name || ' (' || n || ')' AS name FROM (
    SELECT id, name, row_number() OVER (PARTITION BY org_id, lower(name) ORDER BY created_at, id) AS n FROM environments
  ) AS ranked WHERE n > 1;
UPDATE environments SET name = (SELECT r.name FROM environment_renames r WHERE r.id = environments.id) WHERE id IN (SELECT id FROM environment_renames);
DROP TABLE environment_renames;

CREATE TEMP TABLE environment_renames AS
  SELECT id, name || ' (' || id || ')' AS name FROM (
    SELECT id, name, row_number() OVER (PARTITION BY org_id, lower(name) ORDER BY created_at, id) AS n FROM environments
  ) AS ranked WHERE n > 1;
UPDATE environments SET name = (SELECT r.name FROM environment_renames r WHERE r.id = environments.id) WHERE id IN (SELECT id FROM environment_renames);
DROP TABLE environment_renames;

CREATE UNIQUE INDEX environments_org_name ON environments(org_id, lower(name));
