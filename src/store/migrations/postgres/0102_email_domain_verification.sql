-- Issue 33: an email domain does nothing until its organization proves it owns it (see the SQLite twin).
-- COLLATE NOCASE in SQLite: citext here.
CREATE TABLE org_email_domain_claims (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain citext NOT NULL,
  token TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, domain)
);
CREATE INDEX org_email_domain_claims_domain ON org_email_domain_claims(domain);

ALTER TABLE org_email_domains ADD COLUMN verified_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE org_email_domains ADD COLUMN method TEXT NOT NULL DEFAULT 'operator';

-- 32 lower-case hex digits, as SQLite's lower(hex(randomblob(16))).
INSERT INTO org_email_domain_claims (org_id, domain, token, created_at)
  SELECT org_id, lower(domain::text), 'sxt-verify-' || replace(gen_random_uuid()::text, '-', ''), (extract(epoch FROM now())::bigint) * 1000 FROM org_email_domains;
DELETE FROM org_email_domains;

CREATE TABLE org_email_domain_links (
  token_hash TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain citext NOT NULL,
  address TEXT NOT NULL,
  requested_by TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX org_email_domain_links_org ON org_email_domain_links(org_id, domain);
