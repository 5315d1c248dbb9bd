-- PostgreSQL twin of ../0104_revoke_deactivated_access.sql.
-- Issue 33 §6: deactivating a member now ends their sessions and revokes their API, CLI and MCP tokens
-- and OAuth grants, so that reactivating them never brings a leaked credential back. Members who were
-- deactivated before this release get the same now: what they held in the organization that
-- deactivated them (all they held, for a disabled account) is ended, as of their deactivation.
UPDATE api_tokens SET revoked_at = (SELECT m.deactivated_at FROM memberships m WHERE m.user_id = api_tokens.user_id AND m.org_id = api_tokens.org_id)
 WHERE revoked_at IS NULL
   AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = api_tokens.user_id AND m.org_id = api_tokens.org_id AND m.deactivated_at IS NOT NULL);
UPDATE api_tokens SET revoked_at = (SELECT u.disabled_at FROM users u WHERE u.id = api_tokens.user_id)
 WHERE revoked_at IS NULL
   AND EXISTS (SELECT 1 FROM users u WHERE u.id = api_tokens.user_id AND u.disabled_at IS NOT NULL);
UPDATE sessions SET ended_at = (SELECT m.deactivated_at FROM memberships m WHERE m.user_id = sessions.user_id AND m.org_id = sessions.org_id)
 WHERE ended_at IS NULL
   AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = sessions.user_id AND m.org_id = sessions.org_id AND m.deactivated_at IS NOT NULL);
UPDATE sessions SET ended_at = (SELECT u.disabled_at FROM users u WHERE u.id = sessions.user_id)
 WHERE ended_at IS NULL
   AND EXISTS (SELECT 1 FROM users u WHERE u.id = sessions.user_id AND u.disabled_at IS NOT NULL);
-- OAuth grants (account ids are `<user>:<org>`) of those memberships and accounts: their tokens and codes first.
DELETE FROM oauth_models
 WHERE model <> 'Grant'
   AND grant_id IN (
     SELECT g.id FROM oauth_models g
      WHERE g.model = 'Grant'
        AND (EXISTS (SELECT 1 FROM memberships m WHERE m.deactivated_at IS NOT NULL AND g.account_id = m.user_id || ':' || m.org_id)
          OR EXISTS (SELECT 1 FROM users u WHERE u.disabled_at IS NOT NULL AND substr(g.account_id, 1, length(u.id) + 1) = u.id || ':')));
DELETE FROM oauth_models
 WHERE model = 'Grant'
   AND (EXISTS (SELECT 1 FROM memberships m WHERE m.deactivated_at IS NOT NULL AND oauth_models.account_id = m.user_id || ':' || m.org_id)
     OR EXISTS (SELECT 1 FROM users u WHERE u.disabled_at IS NOT NULL AND substr(oauth_models.account_id, 1, length(u.id) + 1) = u.id || ':'));
