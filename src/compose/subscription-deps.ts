// What the subscriptions domain is built with: the store, the mail queue, the guarded outbound client,
// its ports, and a key for unsubscribe links derived from the service's JWT key (a link's signature
// can then never serve as, nor reveal, a session token's).
import { createHmac } from 'node:crypto';
import { fileClock } from '../clock.ts';
import type { DashboardDeps } from '../dashboards/index.ts';
import type { SavedDeps } from '../saved/index.ts';
import type { SubscriptionDeps } from '../subscriptions/index.ts';
import type { CoreServices } from './services.ts';
import { dashboardSource, subscriptionPorts } from './subscription-ports.ts';

/** The subscriptions' deps for this replica. */
export function subscriptionDeps(core: CoreServices, saved: SavedDeps, dashboards: DashboardDeps, replicaId: string): SubscriptionDeps {
  return {
    store: core.executor,
    clock: core.config.subscriptionClockFile === undefined ? core.clock : fileClock(core.config.subscriptionClockFile),
    log: core.log,
    mail: core.mailer,
    fetch: core.outbound.fetch,
    checkHost: core.outbound.checkHost,
    secretBox: core.secretBox,
    ports: subscriptionPorts(core.executor, saved, dashboardSource(dashboards)),
    baseUrl: core.config.baseUrl,
    linkKey: createHmac('sha256', core.config.secrets.jwtKey).update('sextant subscription links').digest('base64url'),
    replicaId,
  };
}
