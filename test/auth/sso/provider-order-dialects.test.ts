// An organization's SSO providers are listed by the bytes of their types on both dialects, also on a
// PostgreSQL whose collation is linguistic (en-US), where `-` and `_` sort the other way round: the
// admin's list, the sign-in page's list for an address, and the one an invitation offers.
import { sql } from 'kysely';
import { orgFromEmail } from '../../../src/auth/account/org-from-email.ts';
import { ssoLoginPath } from '../../../src/auth/members/invitation-info.ts';
import { listProviderRows } from '../../../src/auth/sso/provider-store.ts';
import { dialectTest } from '../../helpers/executors.ts';

dialectTest(
  'SSO providers come by the bytes of their types whatever the collation',
  async (t, { x }) => {
    await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0)`);
    await x.run(sql`INSERT INTO org_email_domains (org_id, domain) VALUES ('acme', 'acme.test')`);
    for (const type of ['okta', 'g_suite', 'g-suite']) {
      await x.run(sql`INSERT INTO sso_configs (id, org_id, type, name, issuer, client_id, enabled, created_at) VALUES (${type}, 'acme', ${type}, ${type}, 'https://idp.test', 'c', 1, 0)`);
    }
    const order = ['g-suite', 'g_suite', 'okta'];
    t.deepEqual((await listProviderRows(x, 'acme')).map((p) => p.type), order);
    t.deepEqual((await orgFromEmail({ store: x }, 'http://sextant.test', 'someone@acme.test')).sso.map((p) => p.type), order);
    t.is(await ssoLoginPath(x, 'acme'), '/api/auth/acme/g-suite/login');
  },
  { pgCollation: 'linguistic' },
);
