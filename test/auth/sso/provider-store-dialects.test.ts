// The SSO provider store gives the same answers on SQLite and PostgreSQL: one provider per type and
// organization, a change to a taken type refused, another organization's providers never read,
// changed or removed, and removing one takes its pending logins and linked identities with it.
import { sql } from 'kysely';
import { orgFromEmail } from '../../../src/auth/account/org-from-email.ts';
import { ssoLoginPath } from '../../../src/auth/members/invitation-info.ts';
import { deleteProviderRow, insertProviderRow, listProviderRows, providerByType, providerRow, updateProviderRow, type SsoProviderFields } from '../../../src/auth/sso/provider-store.ts';
import { dialectTest } from '../../helpers/executors.ts';

const fields = (type: string): SsoProviderFields => ({
  type, name: type, issuer: `https://${type}.example`, clientId: 'c', sealedSecret: null, scopes: ['openid'], emailClaim: 'email',
  groupsClaim: null, jitProvisioning: true, defaultRole: 'user', groupMappings: [{ group: 'g', role: 'admin' }],
});

dialectTest('one provider per type and organization; another organization sees none of them', async (t, { x }) => {
  for (const org of ['o1', 'o2']) await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${org}, ${org}, 0)`);
  t.true(await insertProviderRow(x, { id: 'p1', orgId: 'o1', now: 1, fields: fields('okta') }));
  t.false(await insertProviderRow(x, { id: 'p2', orgId: 'o1', now: 1, fields: fields('okta') }), 'same type again');
  t.true(await insertProviderRow(x, { id: 'p3', orgId: 'o1', now: 1, fields: fields('azure') }));
  t.true(await insertProviderRow(x, { id: 'p4', orgId: 'o2', now: 1, fields: fields('okta') }));
  t.deepEqual((await listProviderRows(x, 'o1')).map((r) => r.id), ['p3', 'p1']);
  t.like(await providerByType(x, 'o1', 'okta'), { id: 'p1', jit_provisioning: 1, group_mappings: '[{"group":"g","role":"admin"}]' });
  t.is(await providerRow(x, 'o2', 'p1'), undefined);
  t.false(await updateProviderRow(x, { id: 'p3', orgId: 'o1', now: 2, fields: fields('okta') }), 'a taken type');
  t.false(await updateProviderRow(x, { id: 'p1', orgId: 'o2', now: 2, fields: fields('google') }), "another organization's");
  t.true(await updateProviderRow(x, { id: 'p3', orgId: 'o1', now: 2, fields: { ...fields('azure'), name: 'Azure AD' } }));
  t.like(await providerRow(x, 'o1', 'p3'), { name: 'Azure AD', updated_at: 2 });
  t.like(await providerRow(x, 'o2', 'p4'), { name: 'okta', updated_at: 1 });
});

dialectTest('removing a provider takes its pending logins and identities, only its own', async (t, { x }) => {
  for (const org of ['o1', 'o2']) await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${org}, ${org}, 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u1', 'a@example.com', 0)`);
  for (const [id, org] of [['p1', 'o1'], ['p2', 'o2']] as const) {
    t.true(await insertProviderRow(x, { id, orgId: org, now: 1, fields: fields('okta') }));
    await x.run(sql`INSERT INTO sso_identities (org_id, issuer, subject, user_id, created_at) VALUES (${org}, 'https://okta.example', ${`s-${org}`}, 'u1', 0)`);
  }
  await deleteProviderRow(x, (await providerRow(x, 'o1', 'p1'))!);
  t.deepEqual((await listProviderRows(x, 'o1')).length, 0);
  t.deepEqual((await listProviderRows(x, 'o2')).map((r) => r.id), ['p2']);
  t.deepEqual((await x.all(sql<{ org_id: string }>`SELECT org_id FROM sso_identities`)).map((r) => r.org_id), ['o2']);
});

dialectTest(
  'providers are listed, offered at sign-in and to invitees by the bytes of their types whatever the collation of the database',
  async (t, { x }) => {
    await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'o1', 0)`);
    await x.run(sql`INSERT INTO org_email_domains (domain, org_id) VALUES ('o1.test', 'o1')`);
    for (const [id, type] of [['p1', 'okta_us'], ['p2', 'okta-eu'], ['p3', 'oktab']] as const) t.true(await insertProviderRow(x, { id, orgId: 'o1', now: 1, fields: fields(type) }));
    t.deepEqual((await listProviderRows(x, 'o1')).map((r) => r.type), ['okta-eu', 'okta_us', 'oktab']);
    t.deepEqual((await orgFromEmail({ store: x }, 'https://sextant.test', 'ann@o1.test')).sso.map((s) => s.type), ['okta-eu', 'okta_us', 'oktab']);
    t.is(await ssoLoginPath(x, 'o1'), '/api/auth/o1/okta-eu/login');
  },
  { pgCollation: 'linguistic' },
);
