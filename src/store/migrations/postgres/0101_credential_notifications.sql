-- Every replica caches verified credentials (credential-cache.ts) and LISTENs on sextant_credentials:
-- a write to a table a principal is made of, from any process, notifies them all when it commits, and
-- each drops its cache. Statement-level triggers: one notification per statement however many rows
-- it touched (PostgreSQL also folds identical notifications of one transaction into one). The API
-- token columns match the SQLite watch: recording a token's use (last_used_at) notifies no one.
CREATE FUNCTION sextant_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sextant_credentials', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER sextant_credentials_users AFTER UPDATE OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION sextant_credentials_changed();
CREATE TRIGGER sextant_credentials_sessions AFTER UPDATE OR DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION sextant_credentials_changed();
CREATE TRIGGER sextant_credentials_api_tokens
  AFTER UPDATE OF revoked_at, expires_at, user_id, org_id, kind, scopes, token_hash OR DELETE ON api_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION sextant_credentials_changed();
CREATE TRIGGER sextant_credentials_memberships AFTER INSERT OR UPDATE OR DELETE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION sextant_credentials_changed();
CREATE TRIGGER sextant_credentials_organizations AFTER UPDATE OR DELETE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION sextant_credentials_changed();
