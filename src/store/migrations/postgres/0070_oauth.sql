-- PostgreSQL twin of ../0070_oauth.sql.
CREATE TABLE oauth_models (
  model TEXT NOT NULL,
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  uid TEXT,
  account_id TEXT,
  client_id TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  consumed_at BIGINT,
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_models_grant ON oauth_models(grant_id);
CREATE INDEX oauth_models_uid ON oauth_models(model, uid);
CREATE INDEX oauth_models_account ON oauth_models(model, account_id);
CREATE INDEX oauth_models_expiry ON oauth_models(expires_at);
CREATE INDEX oauth_models_client ON oauth_models(model, client_id);

CREATE TABLE oauth_keys (
  id TEXT PRIMARY KEY,
  sealed_jwk TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
