-- Issue 33: an email domain does nothing until its organization proves it owns it.
-- org_email_domains stays the routing table (org_from_email, SSO buttons, joining on sign-up) and now
-- holds verified domains only, with when and how each was verified. Claims, pending or verified, are
-- org_email_domain_claims: several organizations may claim one domain, the first to verify it wins
-- (the routing table's primary key), and the others' claims stay, shown as taken.
CREATE TABLE org_email_domain_claims (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain TEXT NOT NULL COLLATE NOCASE,
  -- The value to publish in the TXT record _sextant-verification.<domain>: 'sxt-verify-' and 32 hex digits.
  token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, domain)
);
CREATE INDEX org_email_domain_claims_domain ON org_email_domain_claims(domain);

-- 'dns' (TXT record), 'email' (a link mailed to an address at the domain) or 'operator' (the demo seed,
-- an operator's fixture).
ALTER TABLE org_email_domains ADD COLUMN verified_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE org_email_domains ADD COLUMN method TEXT NOT NULL DEFAULT 'operator';

-- Domains claimed before this migration were never proven: they become pending claims of their
-- organization and stop routing until an admin verifies them.
INSERT INTO org_email_domain_claims (org_id, domain, token, created_at)
  SELECT org_id, lower(domain), 'sxt-verify-' || lower(hex(randomblob(16))), CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM org_email_domains;
DELETE FROM org_email_domains;

-- Links mailed to an address at a claimed domain; only a SHA-256 of the link's token is kept. An admin of
-- the claiming organization opens one once, before it expires.
CREATE TABLE org_email_domain_links (
  token_hash TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain TEXT NOT NULL COLLATE NOCASE,
  address TEXT NOT NULL,
  requested_by TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX org_email_domain_links_org ON org_email_domain_links(org_id, domain);
