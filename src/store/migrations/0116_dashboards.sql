-- Dashboards (src/dashboards): saved questions and text arranged on a grid, with filters applied to
-- every tile whose result has the field, and read-only share links that run as the sharer.
CREATE TABLE dashboards (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- 'private' (the owner only) or 'organization' (every member).
  visibility TEXT NOT NULL,
  -- Raised by every edit: an edit written from an older version is refused.
  version INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  -- JSON: the filter definitions (date ranges and dimension values on named fields).
  filters TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX dashboards_org ON dashboards(org_id, updated_at);

-- A tile shows a saved question (saved_question_id) or text; no foreign key to the question, so
-- deleting a question leaves its tiles to say so instead of silently rearranging the grid.
CREATE TABLE dashboard_tiles (
  dashboard_id TEXT NOT NULL REFERENCES dashboards(id) ON DELETE CASCADE,
  tile_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  saved_question_id TEXT,
  text TEXT,
  x INTEGER NOT NULL,
  y INTEGER NOT NULL,
  w INTEGER NOT NULL,
  h INTEGER NOT NULL,
  PRIMARY KEY (dashboard_id, tile_id)
);

-- A read-only link under its own random id; deleting the row revokes it.
CREATE TABLE dashboard_shares (
  id TEXT PRIMARY KEY,
  dashboard_id TEXT NOT NULL REFERENCES dashboards(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- The sharer: the link's tiles run with this user's permissions; gone with the user.
  created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);
CREATE INDEX dashboard_shares_dashboard ON dashboard_shares(dashboard_id);
