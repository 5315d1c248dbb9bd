// Organization settings set straight in the store for tests (the admin routes are tested on their own): an OIDC
// configuration and an email domain that routes sign-in to an organization.
import type { Clock } from '../../src/clock.ts';
import { newId, type SecretBox } from '../../src/security/index.ts';
import type { Db } from '../../src/store/index.ts';

/** Stores (or replaces) an organization's OIDC configuration; the client secret is sealed. */
export function setSsoConfig(deps: { db: Db; clock: Clock; secretBox: SecretBox }, c: { orgId: string; type: string; issuer: string; clientId: string; clientSecret?: string }): void {
  deps.db
    .prepare(
      `INSERT INTO sso_configs (id, org_id, type, issuer, client_id, client_secret, enabled, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)
       ON CONFLICT (org_id, type) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id, client_secret = excluded.client_secret, enabled = 1`,
    )
    .run(newId(), c.orgId, c.type, c.issuer, c.clientId, c.clientSecret ? deps.secretBox.seal(c.clientSecret) : null, deps.clock.now());
}

/** Registers an email domain for an organization. */
export function addOrgEmailDomain(db: Db, orgId: string, domain: string): void {
  db.prepare('INSERT INTO org_email_domains (domain, org_id) VALUES (?, ?) ON CONFLICT (domain) DO UPDATE SET org_id = excluded.org_id').run(domain.toLowerCase(), orgId);
}
