// Two organizations with a member each on an executor, for the data plane's store tests on both dialects.
import { sql } from 'kysely';
import { FakeClock } from '../../src/clock.ts';
import type { ConnectionDeps } from '../../src/data/connections/index.ts';
import type { DataStore } from '../../src/data/tables.ts';
import type { Executor } from '../../src/store/index.ts';
import { createHostCheck, parseAllowList } from '../../src/outbound/index.ts';
import { createSecretBox } from '../../src/security/index.ts';
import { fakeDns } from './internal-server.ts';

export const secretBox = createSecretBox(Buffer.alloc(32, 3).toString('base64'));

/** Organizations `acme` (user `ann`) and `globex` (user `gus`); returns the store typed for src/data. */
export async function twoOrganizations(x: Executor): Promise<DataStore> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0), ('globex', 'Globex', 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('ann', 'ann@acme.test', 0), ('gus', 'gus@globex.test', 0)`);
  return x as DataStore;
}

// The made-up warehouse hosts these store tests save resolve to a public address, past the address policy.
const publicDns = fakeDns({ 'db.acme.test': '93.184.216.34', 'db2.acme.test': '93.184.216.35', 'db.globex.test': '93.184.216.36' });

/** Connection deps on the store; file roots are unused by the server warehouses these tests save. */
export function connectionDeps(store: DataStore): ConnectionDeps {
  return { store, clock: new FakeClock(), secretBox, fileRoots: [], checkHost: createHostCheck({ allow: parseAllowList([]), lookup: publicDns }) };
}
