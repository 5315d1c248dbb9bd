// Who an evaluation run acts as when a restart resumes it, read on SQLite and PostgreSQL: the user's
// current role and permissions in the run's organization, or nobody once they left, were deactivated
// there or were disabled.
import { sql } from 'kysely';
import { evaluationPrincipalsPort } from '../../src/compose/evaluation-principals.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';

async function seed(x: Executor): Promise<void> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0), ('globex', 'Globex', 0)`);
  await x.run(sql`INSERT INTO organizations (id, name, base_org_id, created_at) VALUES ('acme-lab', 'Lab', 'acme', 0)`);
  await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES ('ann', 'ann@acme.test', 'Ann', 0), ('bob', 'bob@acme.test', 'Bob', 0)`);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, can_merge, created_at)
    VALUES ('ann', 'acme', 'modeler', 1, 0), ('ann', 'acme-lab', 'admin', 0, 0), ('bob', 'acme', 'user', 0, 0)`);
}

dialectTest("a run acts as its user with their current role and permissions in the run's organization", async (t, { x }) => {
  await seed(x);
  const port = evaluationPrincipalsPort(x);
  t.like(await port.principalOf('acme', 'ann'), { userId: 'ann', email: 'ann@acme.test', orgId: 'acme', baseOrgId: 'acme', role: 'modeler', permissions: ['merge_to_production'], credential: 'session' });
  t.like(await port.principalOf('acme-lab', 'ann'), { orgId: 'acme-lab', baseOrgId: 'acme', role: 'admin', permissions: [] });
  await x.run(sql`UPDATE memberships SET role = 'user' WHERE user_id = 'ann' AND org_id = 'acme'`);
  t.like(await port.principalOf('acme', 'ann'), { role: 'user' });
});

dialectTest('a run acts as nobody once its user left the organization, was deactivated there, was disabled or never existed', async (t, { x }) => {
  await seed(x);
  const port = evaluationPrincipalsPort(x);
  t.is(await port.principalOf('globex', 'ann'), undefined);
  t.is(await port.principalOf('acme', 'nobody'), undefined);
  await x.run(sql`UPDATE memberships SET deactivated_at = 1 WHERE user_id = 'bob'`);
  t.is(await port.principalOf('acme', 'bob'), undefined);
  await x.run(sql`UPDATE users SET disabled_at = 1 WHERE id = 'ann'`);
  t.is(await port.principalOf('acme', 'ann'), undefined);
});
