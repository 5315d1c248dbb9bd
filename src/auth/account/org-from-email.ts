// Which organization serves an email domain and how its people sign in. Answers from the domain
// alone, so it never reveals whether a user with that address exists.
import { byteOrder } from '../../store/index.ts';
import type { AuthStore } from '../single-use-tables.ts';
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
export async function orgForEmailDomain(store: AuthStore, email: string): Promise<{ id: string; name: string } | undefined> {
  const domain = email.trim().toLowerCase().split('@')[1];
  if (!domain) return undefined;
  return store.one(
    store.db.selectFrom('org_email_domains as d').innerJoin('organizations as o', 'o.id', 'd.org_id').select(['o.id', 'o.name']).where('d.domain', '=', domain),
  );
}

/** The organization and sign-in methods for an address's domain. */
export async function orgFromEmail({ store }: { store: AuthStore }, baseUrl: string, email: string): Promise<OrgForEmail> {
  const org = await orgForEmailDomain(store, email);
  if (!org) return { org_id: null, org_name: null, methods: ['password', 'magic_link'], sso: [] };
  const providers = await store.all(store.db.selectFrom('sso_configs').select(['type', 'name']).where('org_id', '=', org.id).where('enabled', '=', 1).orderBy(byteOrder(store, 'type')));
  const types = providers.map((p) => p.type);
  return {
    org_id: org.id,
    org_name: org.name,
    methods: ['password', 'magic_link', ...types.map((t) => `sso:${t}`)],
    sso: providers.map(({ type, name }) => ({ type, name: name || type, login_url: ssoLoginUrl(baseUrl, org.id, type) })),
  };
}
