// The demo organization of `npm start`: created once, reused on later starts. Its sign-in details
// are in the README and are for local trials only.
import { createOrganization, createUser, getOrganization, setMembership, type Role } from '../auth/index.ts';
import { seedDemoWarehouse } from '../data/demo/seed-demo-warehouse.ts';
import type { Services } from '../gateway/services.ts';
import { hashPassword } from '../security/index.ts';

export const DEMO_ORG_ID = 'demo';

export const DEMO_USERS: { email: string; name: string; password: string; role: Role; canMerge: boolean }[] = [
  { email: 'admin@demo.sextant.local', name: 'Ada Admin', password: 'demo-admin-password', role: 'admin', canMerge: true },
  { email: 'modeler@demo.sextant.local', name: 'Max Modeler', password: 'demo-modeler-password', role: 'modeler', canMerge: false },
  { email: 'analyst@demo.sextant.local', name: 'Ana Analyst', password: 'demo-analyst-password', role: 'user', canMerge: false },
];

/** Seeds the demo organization, its users and its warehouse; steps already done are skipped. */
export async function seedDemo(s: Pick<Services, 'store' | 'clock' | 'log' | 'config' | 'secretBox'>): Promise<void> {
  await seedDemoOrganization(s);
  const { dataDir, data } = s.config;
  await seedDemoWarehouse(
    { db: s.store.db, clock: s.clock, secretBox: s.secretBox, log: s.log, dataDir, fileRoots: data.warehouseRoots, orders: data.demoWarehouseOrders },
    DEMO_ORG_ID,
  );
}

async function seedDemoOrganization(s: Pick<Services, 'store' | 'clock' | 'log'>): Promise<void> {
  const { db } = s.store;
  if (getOrganization(db, DEMO_ORG_ID)) return;
  const hashes = await Promise.all(DEMO_USERS.map((u) => hashPassword(u.password)));
  s.store.tx(() => {
    createOrganization(db, s.clock, { id: DEMO_ORG_ID, name: 'Demo Retail' });
    DEMO_USERS.forEach((u, i) => {
      const user = createUser(db, s.clock, { email: u.email, name: u.name, passwordHash: hashes[i]!, emailVerified: true });
      setMembership(db, s.clock, { userId: user.id, orgId: DEMO_ORG_ID, role: u.role, permissions: u.canMerge ? ['merge_to_production'] : [] });
    });
  });
  s.log.info({ org_id: DEMO_ORG_ID, users: DEMO_USERS.map((u) => u.email) }, 'seeded the demo organization');
}
