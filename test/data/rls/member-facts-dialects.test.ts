// The admin member pages' facts (attributes and groups of several members) and the groups single
// sign-on manages give the same answers on SQLite and PostgreSQL, and never cross organizations. On
// PostgreSQL `other` is a second pool standing for a second replica: two sign-ins that create the
// same new group at once both end up in the one group.
import { sql } from 'kysely';
import { memberFactsPort } from '../../../src/compose/member-facts.ts';
import { forgetMemberFacts, listGroups, loadRlsUser, memberFactsOf, saveGroup, setUserAttributes, unknownGroupIds } from '../../../src/data/rls/index.ts';
import { syncManagedGroups } from '../../../src/data/rls/sso-group-members.ts';
import type { DataStore } from '../../../src/data/tables.ts';
import { twoOrganizations } from '../../helpers/data-store.ts';
import { dialectTest } from '../../helpers/executors.ts';

async function withAmy(x: DataStore): Promise<void> {
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('amy', 'amy@acme.test', 0)`);
}

dialectTest("several members' facts are read at once, from their organization only, members without facts absent", async (t, { x }) => {
  const store = await twoOrganizations(x);
  await withAmy(store);
  await setUserAttributes(store, 'acme', 'ann', { region: 'EMEA', country: 'France' });
  await setUserAttributes(store, 'globex', 'ann', { country: 'Peru' });
  await saveGroup(store, 'acme', { id: 'sales', name: 'Sales', members: ['ann'] });
  await saveGroup(store, 'acme', { id: 'eu', name: 'Europe', members: ['ann'] });
  await saveGroup(store, 'globex', { id: 'ops', name: 'Ops', members: ['ann', 'gus'] });
  const facts = await memberFactsOf(store, 'acme', ['ann', 'amy', 'gus']);
  t.deepEqual([...facts.keys()], ['ann']);
  t.deepEqual(facts.get('ann'), {
    attributes: { country: 'France', region: 'EMEA' },
    groups: [
      { id: 'eu', name: 'Europe' },
      { id: 'sales', name: 'Sales' },
    ],
  });
  t.deepEqual((await memberFactsOf(store, 'globex', ['ann'])).get('ann'), { attributes: { country: 'Peru' }, groups: [{ id: 'ops', name: 'Ops' }] });
  t.is((await memberFactsOf(store, 'acme', [])).size, 0);
});

dialectTest("group ids the organization does not have are named, another organization's among them", async (t, { x }) => {
  const store = await twoOrganizations(x);
  await saveGroup(store, 'acme', { id: 'sales', name: 'Sales', members: [] });
  await saveGroup(store, 'globex', { id: 'ops', name: 'Ops', members: [] });
  t.deepEqual(await unknownGroupIds(store, 'acme', ['sales', 'ops', 'nope']), ['ops', 'nope']);
  t.deepEqual(await unknownGroupIds(store, 'acme', []), []);
});

dialectTest("a member's attributes and groups are replaced together, and left as they were when only attributes are given", async (t, { x }) => {
  const store = await twoOrganizations(x);
  const port = memberFactsPort(store);
  await saveGroup(store, 'acme', { id: 'sales', name: 'Sales', members: ['ann'] });
  await saveGroup(store, 'acme', { id: 'eu', name: 'Europe', members: [] });
  await port.setFacts('acme', 'ann', { attributes: { country: 'France', region: 'EMEA' }, groups: ['eu', 'eu'] });
  t.deepEqual((await port.factsOf('acme', ['ann'])).get('ann'), { attributes: { country: 'France', region: 'EMEA' }, groups: [{ id: 'eu', name: 'Europe' }] });
  await port.setFacts('acme', 'ann', { attributes: { country: 'Spain' } });
  t.deepEqual((await port.factsOf('acme', ['ann'])).get('ann'), { attributes: { country: 'Spain' }, groups: [{ id: 'eu', name: 'Europe' }] });
  await port.setFacts('acme', 'ann', { groups: [] });
  t.deepEqual((await port.factsOf('acme', ['ann'])).get('ann'), { attributes: { country: 'Spain' }, groups: [] });
});

dialectTest('a group deleted after the check is skipped when the member is put in groups, rather than failing', async (t, { x }) => {
  const store = await twoOrganizations(x);
  await saveGroup(store, 'acme', { id: 'sales', name: 'Sales', members: [] });
  await memberFactsPort(store).setFacts('acme', 'ann', { attributes: {}, groups: ['sales', 'gone'] });
  t.deepEqual((await memberFactsOf(store, 'acme', ['ann'])).get('ann')?.groups, [{ id: 'sales', name: 'Sales' }]);
});

dialectTest("forgetting a member's facts leaves their facts in other organizations and other members' alone", async (t, { x }) => {
  const store = await twoOrganizations(x);
  await withAmy(store);
  await setUserAttributes(store, 'acme', 'ann', { country: 'France' });
  await setUserAttributes(store, 'acme', 'amy', { country: 'Chile' });
  await setUserAttributes(store, 'globex', 'ann', { country: 'Peru' });
  await saveGroup(store, 'acme', { id: 'sales', name: 'Sales', members: ['ann', 'amy'] });
  await forgetMemberFacts(store, 'acme', 'ann');
  const facts = await memberFactsOf(store, 'acme', ['ann', 'amy']);
  t.false(facts.has('ann'));
  t.deepEqual(facts.get('amy'), { attributes: { country: 'Chile' }, groups: [{ id: 'sales', name: 'Sales' }] });
  t.deepEqual((await loadRlsUser(store, 'globex', { id: 'ann', email: '', role: 'user' })).attributes, { country: 'Peru' });
});

dialectTest('an SSO sign-in joins the managed groups the provider names, leaves the other managed ones and creates groups named for the first time', async (t, { x }) => {
  const store = await twoOrganizations(x);
  await saveGroup(store, 'acme', { id: 'old', name: 'Old', members: ['ann'] });
  await saveGroup(store, 'acme', { id: 'manual', name: 'Manual', members: ['ann'] });
  await syncManagedGroups(store, { orgId: 'acme', userId: 'ann', groups: ['Sales'], managed: ['Sales', 'Old', 'Finance'] });
  const groups = await listGroups(store, 'acme');
  t.deepEqual(groups.map((g) => g.name), ['Finance', 'Manual', 'Old', 'Sales']);
  t.deepEqual(groups.map((g) => g.members), [[], ['ann'], [], ['ann']]);
  await syncManagedGroups(store, { orgId: 'acme', userId: 'ann', groups: ['Sales', 'Old'], managed: ['Sales', 'Old', 'Finance'] });
  t.deepEqual((await listGroups(store, 'acme')).map((g) => [g.name, g.members]), [['Finance', []], ['Manual', ['ann']], ['Old', ['ann']], ['Sales', ['ann']]]);
  t.deepEqual(await listGroups(store, 'globex'), []);
});

dialectTest('two SSO sign-ins creating the same new group at once through two connections both join the one group', async (t, { x, other }) => {
  const store = await twoOrganizations(x);
  for (let trial = 0; trial < 10; trial++) {
    const managed = [`Team ${trial}`, `Crew ${trial}`];
    await Promise.all([
      syncManagedGroups(store, { orgId: 'acme', userId: 'ann', groups: managed, managed }),
      syncManagedGroups(other as DataStore, { orgId: 'acme', userId: 'gus', groups: managed, managed: [...managed].reverse() }),
    ]);
    const made = (await listGroups(store, 'acme')).filter((g) => managed.includes(g.name));
    t.is(made.length, 2, `trial ${trial}`);
    t.deepEqual(made.map((g) => g.members), [['ann', 'gus'], ['ann', 'gus']], `trial ${trial}`);
  }
});

dialectTest(
  'groups, their members and a member\'s facts are listed by their bytes whatever the collation of the database',
  async (t, { x }) => {
    const store = await twoOrganizations(x);
    await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('Bea', 'bea@acme.test', 0), ('al', 'al@acme.test', 0)`);
    await setUserAttributes(store, 'acme', 'ann', { region: 'EMEA', Team: 'Data', country: 'France' });
    for (const [id, name] of [['g1', 'sales'], ['g2', 'Support'], ['g3', 'analysts']] as const) await saveGroup(store, 'acme', { id, name, members: ['ann', 'Bea', 'al'] });
    t.deepEqual((await listGroups(store, 'acme')).map((g) => [g.name, g.members]), [['Support', ['Bea', 'al', 'ann']], ['analysts', ['Bea', 'al', 'ann']], ['sales', ['Bea', 'al', 'ann']]]);
    const facts = (await memberFactsOf(store, 'acme', ['ann'])).get('ann')!;
    t.deepEqual(Object.keys(facts.attributes), ['Team', 'country', 'region']);
    t.deepEqual(facts.groups.map((g) => g.name), ['Support', 'analysts', 'sales']);
  },
  { pgCollation: 'linguistic' },
);
