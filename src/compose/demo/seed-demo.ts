// The demo organization of `npm start`: created once, reused on later starts. Its sign-in details
// are in the README and docs/getting-started.md and are for local trials only.
import { fileURLToPath } from 'node:url';
import { findUserByEmail, getOrganization, membershipUpsert, organizationInsert, userInsert, type Role } from '../../auth/index.ts';
import { NEW_ORG_SETTINGS, saveOrgSettingsQuery } from '../../auth/members/index.ts';
import { DEMO_CONNECTION_ID, moveDemoWarehouse, seedDemoWarehouse, warnUnconfinedConnections } from '../../data/index.ts';
import { answersFromWarehouse } from './demo-evaluation.ts';
import { seedDemoDashboard } from './seed-demo-dashboard.ts';
import type { Services } from '../services.ts';
import { seedKnowledge } from '../../knowledge/index.ts';
import { hashPassword, newId } from '../../security/index.ts';

export const DEMO_ORG_ID = 'demo';

export const DEMO_USERS: { email: string; name: string; password: string; role: Role; canMerge: boolean }[] = [
  { email: 'admin@demo.sextant.local', name: 'Ada Admin', password: 'demo-admin-password', role: 'admin', canMerge: true },
  { email: 'modeler@demo.sextant.local', name: 'Max Modeler', password: 'demo-modeler-password', role: 'modeler', canMerge: false },
  { email: 'analyst@demo.sextant.local', name: 'Ana Analyst', password: 'demo-analyst-password', role: 'user', canMerge: false },
];

/** Documentation of the demo warehouse, committed as the demo organization's first knowledge commit. */
export const DEMO_KNOWLEDGE_DIR = fileURLToPath(new URL('../../../fixtures/knowledge', import.meta.url));

type SeedServices = Pick<Services, 'store' | 'executor' | 'clock' | 'log' | 'knowledge' | 'config' | 'secretBox' | 'data'>;

/** Seeds the demo organization, its users, its warehouse, its knowledge and its example dashboard; steps already done are skipped. */
export async function seedDemo(s: SeedServices): Promise<void> {
  await seedDemoOrg(s, s.config.bcryptCost);
  const { data } = s.config;
  // The warehouse first: the demo evaluation's expected answers are computed from it.
  await seedDemoWarehouse({ store: s.data.store, clock: s.clock, secretBox: s.secretBox, log: s.log, fileRoots: data.warehouseRoots, orders: data.demoWarehouseOrders }, DEMO_ORG_ID);
  await seedDemoKnowledge(s);
  await seedDemoDashboard(s, DEMO_ORG_ID, DEMO_USERS[0]!.email);
}

/**
 * Runs at every start, seeding or not, for installations from before per-organization warehouse
 * folders: the demo warehouse moves into the demo organization's folder; other connections naming a
 * shared file are listed in the log (they are refused until an operator moves the file).
 */
export async function confineLegacyWarehouseFiles(s: Pick<Services, 'data' | 'clock' | 'log' | 'config'>): Promise<void> {
  await moveDemoWarehouse({ store: s.data.store, clock: s.clock, log: s.log, fileRoots: s.config.data.warehouseRoots }, DEMO_ORG_ID);
  await warnUnconfinedConnections(s.data.store, s.config.data.warehouseRoots, s.log);
}

async function seedDemoKnowledge(s: SeedServices): Promise<void> {
  const admin = await findUserByEmail(s.executor, DEMO_USERS[0]!.email);
  const author = { name: admin?.name ?? 'Sextant', email: admin?.email ?? 'demo@sextant.local', timestamp: Math.floor(s.clock.now() / 1000) };
  const transform = answersFromWarehouse(s, DEMO_ORG_ID, DEMO_CONNECTION_ID);
  const seeded = await seedKnowledge(s.knowledge, { orgId: DEMO_ORG_ID, dir: DEMO_KNOWLEDGE_DIR, author, message: 'Document the demo warehouse', transform });
  if (seeded) s.log.info({ org_id: DEMO_ORG_ID }, 'seeded the demo knowledge');
}

/**
 * The demo organization and its users, in one batch, unless they exist. Replicas starting together on
 * one fresh database may both try: the organization's key lets one batch in and refuses the other,
 * whose replica then finds the demo seeded and starts as well.
 */
export async function seedDemoOrg(s: Pick<Services, 'executor' | 'clock' | 'log'>, bcryptCost?: number): Promise<void> {
  const x = s.executor;
  if (await getOrganization(x, DEMO_ORG_ID)) return;
  const hashes = await Promise.all(DEMO_USERS.map((u) => hashPassword(u.password, bcryptCost)));
  const users = DEMO_USERS.map((u, i) => ({ ...u, id: newId(), passwordHash: hashes[i]! }));
  const seeded = await x
    .batch([
      organizationInsert(x, s.clock, { id: DEMO_ORG_ID, name: 'Demo Retail' }),
      // The demo's walkthrough changes knowledge in an environment, as a new organization does.
      saveOrgSettingsQuery(DEMO_ORG_ID, NEW_ORG_SETTINGS, s.clock.now()),
      ...users.flatMap((u) => [
        userInsert(x, s.clock, { id: u.id, email: u.email, name: u.name, passwordHash: u.passwordHash, emailVerified: true }),
        membershipUpsert(x, s.clock, { userId: u.id, orgId: DEMO_ORG_ID, role: u.role, permissions: u.canMerge ? ['merge_to_production'] : [] }),
      ]),
    ])
    .then(
      () => true,
      async (err: unknown) => {
        if (await getOrganization(x, DEMO_ORG_ID)) return false;
        throw err;
      },
    );
  if (seeded) s.log.info({ org_id: DEMO_ORG_ID, users: DEMO_USERS.map((u) => u.email) }, 'seeded the demo organization');
}
