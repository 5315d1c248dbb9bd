-- SSO providers set up by admins (issue 23): a stable id for the admin API, a display name, the
-- scopes asked, the claims carrying email and groups, just-in-time provisioning, the default role
-- and the mapping of identity-provider groups to roles and row-level-security groups (JSON).
ALTER TABLE sso_configs ADD COLUMN id TEXT;
ALTER TABLE sso_configs ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE sso_configs ADD COLUMN scopes TEXT NOT NULL DEFAULT 'openid email profile';
ALTER TABLE sso_configs ADD COLUMN email_claim TEXT NOT NULL DEFAULT 'email';
ALTER TABLE sso_configs ADD COLUMN groups_claim TEXT;
ALTER TABLE sso_configs ADD COLUMN jit_provisioning INTEGER NOT NULL DEFAULT 1;
ALTER TABLE sso_configs ADD COLUMN default_role TEXT NOT NULL DEFAULT 'user';
ALTER TABLE sso_configs ADD COLUMN group_mappings TEXT NOT NULL DEFAULT '[]';
ALTER TABLE sso_configs ADD COLUMN updated_at INTEGER;
UPDATE sso_configs SET id = lower(hex(randomblob(16))) WHERE id IS NULL;
CREATE UNIQUE INDEX sso_configs_id ON sso_configs(id);
