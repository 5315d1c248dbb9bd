// An organization's credit limits are listed by the bytes of the user ids on both dialects, also on a
// PostgreSQL whose collation is linguistic (en-US), where ids with `-`, `_` and capitals sort otherwise.
import { sql } from 'kysely';
import { creditLimits, setCreditLimit } from '../../src/agent/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { dialectTest } from '../helpers/executors.ts';

dialectTest(
  'credit limits come by the bytes of the user ids whatever the collation, the organization’s first',
  async (t, { x }) => {
    const deps = { store: x, clock: new FakeClock() };
    await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'One', 0)`);
    for (const userId of ['x_1', 'x-1', 'B2', 'a3', null]) await setCreditLimit(deps, { orgId: 'o1', userId, monthlyCredits: 1, by: 'admin' });
    t.deepEqual((await creditLimits(deps, 'o1')).map((l) => l.user_id), [null, 'B2', 'a3', 'x-1', 'x_1']);
  },
  { pgCollation: 'linguistic' },
);
