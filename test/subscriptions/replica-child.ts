// One replica's subscription scheduler in a process of its own, for the kill -9 test: the real store
// (PostgreSQL), scheduler, mail queue and SMTP transport, with the report's content stubbed (a fixed
// table, after a pause long enough to be killed in). It prints `ready` once its store is open, then `render` when a run starts rendering.
// Arguments: database URL, SMTP URL, replica id.
import { systemClock } from '../../src/clock.ts';
import { createLogger } from '../../src/log.ts';
import { createMailQueue, createSmtpMailer } from '../../src/mail/index.ts';
import { createOutbound } from '../../src/outbound/index.ts';
import { createSecretBox } from '../../src/security/index.ts';
import { openServiceStore } from '../../src/store/index.ts';
import { tick, type SubscriptionDeps } from '../../src/subscriptions/index.ts';

const [databaseUrl, smtpUrl, replicaId] = process.argv.slice(2) as [string, string, string];
const store = await openServiceStore({ dataDir: '/nonexistent', databaseUrl });
const log = createLogger('silent');
const outbound = createOutbound();
const deps: SubscriptionDeps = {
  store: store.executor,
  clock: systemClock,
  log,
  mail: createMailQueue({ store: store.executor, clock: systemClock, log, transport: createSmtpMailer({ url: smtpUrl, from: 'sextant@replicas.test' }) }),
  fetch: outbound.fetch,
  checkHost: outbound.checkHost,
  secretBox: createSecretBox(Buffer.alloc(32, 3).toString('base64')),
  ports: {
    principalOf: async (orgId, userId) => ({ userId, email: 'owner@replicas.test', orgId, baseOrgId: orgId, role: 'user', permissions: [], credential: 'session', scopes: [] }),
    questions: {
      check: async () => ({ title: 'Orders' }),
      async render() {
        process.stdout.write('render\n');
        await new Promise((r) => setTimeout(r, 300));
        return { title: 'Orders', tiles: [{ title: 'Orders', columns: [{ name: 'n', type: 'BIGINT' }], rows: [[42]], chart: null, read_at: new Date().toISOString() }] };
      },
    },
    dashboards: { check: () => Promise.reject(new Error('none')), render: () => Promise.reject(new Error('none')) },
    emailOf: async () => 'owner@replicas.test',
    memberAddresses: async (_orgId, addresses) => new Set(addresses),
    externalRecipientsAllowed: async () => true,
  },
  baseUrl: 'http://127.0.0.1:9',
  linkKey: 'replica-test-link-key',
  replicaId,
};
process.stdout.write('ready\n');
// Ticks back to back (a short claim, so a killed replica's run is taken over within the test).
for (;;) {
  await tick({ ...deps, claimMs: 1500 });
  await new Promise((r) => setTimeout(r, 100));
}
