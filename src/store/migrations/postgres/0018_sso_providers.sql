-- PostgreSQL twin of ../0018_sso_providers.sql.
ALTER TABLE sso_configs ADD COLUMN id TEXT;
ALTER TABLE sso_configs ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE sso_configs ADD COLUMN scopes TEXT NOT NULL DEFAULT 'openid email profile';
ALTER TABLE sso_configs ADD COLUMN email_claim TEXT NOT NULL DEFAULT 'email';
ALTER TABLE sso_configs ADD COLUMN groups_claim TEXT;
ALTER TABLE sso_configs ADD COLUMN jit_provisioning BIGINT NOT NULL DEFAULT 1;
ALTER TABLE sso_configs ADD COLUMN default_role TEXT NOT NULL DEFAULT 'user';
ALTER TABLE sso_configs ADD COLUMN group_mappings TEXT NOT NULL DEFAULT '[]';
ALTER TABLE sso_configs ADD COLUMN updated_at BIGINT;
-- 32 lower-case hex digits, as SQLite's lower(hex(randomblob(16))).
UPDATE sso_configs SET id = replace(gen_random_uuid()::text, '-', '') WHERE id IS NULL;
CREATE UNIQUE INDEX sso_configs_id ON sso_configs(id);
