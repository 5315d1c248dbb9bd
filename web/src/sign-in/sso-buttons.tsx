// The organization's single sign-on providers, found from the domain of the address typed so far.
import { useEffect, useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';

type OrgMethods = ResponseOf<'/api/auth/org_from_email', 'get'>;

const NAMES: Record<string, string> = { oidc: 'single sign-on', google: 'Google', microsoft: 'Microsoft', okta: 'Okta' };

export function SsoButtons({ email, next }: { email: string; next: string }) {
  const [org, setOrg] = useState<OrgMethods | undefined>();
  useEffect(() => {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setOrg(undefined);
      return;
    }
    const abort = new AbortController();
    // Looked up once typing pauses; the answer depends on the domain only, never on the account.
    const timer = setTimeout(() => {
      call(api.GET('/api/auth/org_from_email', { params: { query: { email: email.trim() } }, signal: abort.signal })).then(setOrg, () => setOrg(undefined));
    }, 350);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [email]);
  if (!org?.sso.length) return null;
  return (
    <>
      {org.sso.map((p) => (
        <a key={p.type} className="button" href={`${new URL(p.login_url).pathname}?next=${encodeURIComponent(next)}`}>
          {/* The name an admin gave the provider; without one it is the type. */}
          Continue with {p.name !== p.type ? p.name : (NAMES[p.type] ?? p.type)}
          {org.org_name ? ` (${org.org_name})` : ''}
        </a>
      ))}
    </>
  );
}
