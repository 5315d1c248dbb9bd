// The groups of an organization, their members, and a member's attributes and groups are listed by
// the bytes of the text on both dialects, also on a PostgreSQL whose collation is linguistic (en-US,
// as the official image and most hosted services), where `-` and `_` and capitals sort otherwise.
import { sql } from 'kysely';
import { listGroups, memberFactsOf, saveGroup, setUserAttributes } from '../../../src/data/rls/index.ts';
import { twoOrganizations } from '../../helpers/data-store.ts';
import { dialectTest } from '../../helpers/executors.ts';

dialectTest(
  'groups, their members and a member’s attributes and groups come in byte order whatever the collation',
  async (t, { x }) => {
    const store = await twoOrganizations(x);
    for (const id of ['x_1', 'x-1', 'B2']) await store.run(sql`INSERT INTO users (id, email, created_at) VALUES (${id}, ${`${id}@acme.test`}, 0)`);
    const members = ['x_1', 'x-1', 'B2', 'ann'];
    for (const [id, name] of [['g1', 'beta'], ['g2', 'Alpha'], ['g3', 'x_1'], ['g4', 'x-1']]) await saveGroup(store, 'acme', { id: id!, name: name!, members });
    const groups = await listGroups(store, 'acme');
    t.deepEqual(groups.map((g) => g.name), ['Alpha', 'beta', 'x-1', 'x_1']);
    t.deepEqual(groups[0]!.members, ['B2', 'ann', 'x-1', 'x_1']);
    await setUserAttributes(store, 'acme', 'ann', { x_1: 'a', 'x-1': 'b', Zone: 'c', area: 'd' });
    const facts = (await memberFactsOf(store, 'acme', ['ann'])).get('ann')!;
    t.deepEqual(Object.keys(facts.attributes), ['Zone', 'area', 'x-1', 'x_1']);
    t.deepEqual(facts.groups.map((g) => g.name), ['Alpha', 'beta', 'x-1', 'x_1']);
  },
  { pgCollation: 'linguistic' },
);
