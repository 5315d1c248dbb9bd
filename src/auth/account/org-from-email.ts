// Which organization serves an email domain and how its people sign in. Answers from the domain
// alone, so it never reveals whether a user with that address exists.
import type { Db } from '../../store/index.ts';
import { getOrganization, type OrgRow } from '../directory.ts';
import { ssoLoginUrl } from '../sso/sso-login.ts';

export interface OrgForEmail {
  org_id: string | null;
  org_name: string | null;
  /** 'password', 'magic_link' and, per enabled SSO configuration, 'sso:<type>'. */
  methods: string[];
  /** Start URLs of enabled SSO logins. */
  sso: { type: string; name: string; login_url: string }[];
}

/** The organization registered for the domain of an address, if any. */
export function orgForEmailDomain(db: Db, email: string): OrgRow | undefined {
  const domain = email.trim().toLowerCase().split('@')[1];
  if (!domain) return undefined;
  const row = db.prepare('SELECT org_id FROM org_email_domains WHERE domain = ?').get(domain) as { org_id: string } | undefined;
  return row ? getOrganization(db, row.org_id) : undefined;
}

/** The organization and sign-in methods for an address's domain. */
export function orgFromEmail({ db }: { db: Db }, baseUrl: string, email: string): OrgForEmail {
  const org = orgForEmailDomain(db, email);
  if (!org) return { org_id: null, org_name: null, methods: ['password', 'magic_link'], sso: [] };
  const providers = db.prepare('SELECT type, name FROM sso_configs WHERE org_id = ? AND enabled = 1 ORDER BY type').all(org.id) as { type: string; name: string }[];
  const types = providers.map((p) => p.type);
  return {
    org_id: org.id,
    org_name: org.name,
    methods: ['password', 'magic_link', ...types.map((t) => `sso:${t}`)],
    sso: providers.map(({ type, name }) => ({ type, name: name || type, login_url: ssoLoginUrl(baseUrl, org.id, type) })),
  };
}
