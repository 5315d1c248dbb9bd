// `{{user.role}}`, `{{user.email}}`, `{{user.id}}` and `{{user.groups}}` come from the account on every
// path: an attribute of the same name (in any letter case, stored before the rule or sent now) is
// never read, and the one write of attributes refuses those names (issue 33, section 6).
import test from 'ava';
import { ValidationFailed } from '../../../src/errors.ts';
import { attributeIssues, checkAttributes, policyFor, renderFilter, RESERVED_ATTRIBUTES, type RlsUser } from '../../../src/data/rls/index.ts';
import type { TableDoc } from '../../../src/data/types.ts';

// An analyst whose attributes try to pass for an admin, another address, another id and a group.
const spoofing: RlsUser = {
  id: 'u1',
  email: 'ann@acme.test',
  role: 'user',
  attributes: { role: 'admin', Role: 'admin', ROLE: 'admin', email: 'boss@acme.test', id: 'u-boss', groups: 'finance', region: 'EU' },
  groups: [],
};

test('{{user.role}} reads the account role in every letter case, never an attribute named role', (t) => {
  for (const placeholder of ['{{user.role}}', '{{ user.Role }}', '{{user.ROLE}}']) {
    t.is(renderFilter(`visible_to = ${placeholder}`, spoofing, 'postgresql'), "visible_to = 'user'", placeholder);
  }
});

test('{{user.email}}, {{user.id}} and {{user.groups}} read the account, whatever attributes are stored', (t) => {
  t.is(renderFilter('owner = {{user.email}}', spoofing, 'sqlite'), "owner = 'ann@acme.test'");
  t.is(renderFilter('owner_id = {{user.Id}}', spoofing, 'sqlite'), "owner_id = 'u1'");
  // No groups on the account: the filter denies, the attribute `groups` does not stand in.
  t.is(renderFilter('team IN {{user.groups}}', spoofing, 'sqlite'), '1 = 0');
  t.is(renderFilter('team IN {{user.GROUPS}}', spoofing, 'sqlite'), '1 = 0');
  t.is(renderFilter('region = {{user.region}}', spoofing, 'sqlite'), "region = 'EU'");
});

test('a filter exempting admins still applies to an analyst whose attribute says admin', (t) => {
  const doc: TableDoc = { connection: 'wh', schema: 'main', name: 'salaries', active: true, row_filters: [{ filter: "{{user.role}} = 'admin'", exempt_roles: ['admin'] }] };
  t.is(policyFor(doc, spoofing, 'sqlite'), "('user' = 'admin')");
  t.is(policyFor(doc, { ...spoofing, role: 'admin' }, 'sqlite'), undefined);
});

test('the one attribute validator refuses every reserved name in any letter case, with the field named', (t) => {
  for (const name of [...RESERVED_ATTRIBUTES, 'Role', 'EMAIL', 'Id', 'gRoups']) {
    const err = t.throws(() => checkAttributes({ region: 'EU', [name]: 'x' }), { instanceOf: ValidationFailed });
    t.deepEqual(err?.issues.map((i) => i.loc), [['body', 'attributes', name]], name);
  }
  t.deepEqual(attributeIssues({ 'bad name': 'x', region: 'x'.repeat(1001), ok: 'fine' }).map((i) => i.loc), [
    ['body', 'attributes', 'bad name'],
    ['body', 'attributes', 'region'],
  ]);
  t.deepEqual(attributeIssues(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, 'v']))).map((i) => i.loc), [['body', 'attributes']]);
  t.notThrows(() => checkAttributes({ region: 'EU', country: 'Germany', role_name: 'analyst' }));
});
