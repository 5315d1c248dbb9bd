// What the subscriptions domain needs, built once by src/compose.
import type { Clock } from '../clock.ts';
import type { Logger } from '../log.ts';
import type { MailQueue } from '../mail/index.ts';
import type { CheckHost, OutboundFetch } from '../outbound/index.ts';
import type { SecretBox } from '../security/index.ts';
import type { Executor } from '../store/index.ts';
import type { SubscriptionPorts } from './ports.ts';

export interface SubscriptionDeps {
  store: Executor;
  clock: Clock;
  log: Logger;
  mail: MailQueue;
  /** The guarded outbound client: webhooks reach only what the outbound rules allow. */
  fetch: OutboundFetch;
  /** The same rules asked when a webhook is saved, so a refused address is told at once. */
  checkHost: CheckHost;
  ports: SubscriptionPorts;
  /** Seals webhook URLs at rest (they carry their secret). */
  secretBox: SecretBox;
  /** Where links in mail point (SEXTANT_BASE_URL). */
  baseUrl: string;
  /** Signs unsubscribe links (derived from the service's JWT key, never the key itself). */
  linkKey: string;
  /** This process: the runs it claims are its own until their claim expires. */
  replicaId: string;
}
