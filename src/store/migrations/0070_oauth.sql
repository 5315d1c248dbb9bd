-- The OAuth 2.1 authorization server for MCP clients (oidc-provider). One table holds every model
-- the provider persists (Client, Grant, Session, Interaction, AccessToken, RefreshToken,
-- AuthorizationCode...), keyed by model and id; the columns beside `payload` are what we query.

CREATE TABLE oauth_models (
  model TEXT NOT NULL,
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  uid TEXT,
  -- accountId of Grants (`<user_id>:<org_id>`), for the connected-clients list.
  account_id TEXT,
  client_id TEXT,
  -- First write of the row: the consent page's age is measured from this (injected Clock).
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  consumed_at INTEGER,
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_models_grant ON oauth_models(grant_id);
CREATE INDEX oauth_models_uid ON oauth_models(model, uid);
CREATE INDEX oauth_models_account ON oauth_models(model, account_id);
CREATE INDEX oauth_models_expiry ON oauth_models(expires_at);
CREATE INDEX oauth_models_client ON oauth_models(model, client_id);

-- The authorization server's signing key, generated once and sealed with the secret box.
CREATE TABLE oauth_keys (
  id TEXT PRIMARY KEY,
  sealed_jwk TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
