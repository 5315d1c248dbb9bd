// Unsubscribe links: signed, so one click works without signing in, and a link names one address of
// one subscription only (no list of subscriptions or addresses can be guessed from it or with it).
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../security/index.ts';
import type { SubscriptionDeps } from './deps.ts';
import { InvalidUnsubscribeLink } from './errors.ts';
import { addUnsubscribe, subscriptionById } from './subscriptions-store.ts';

const mac = (key: string, subscriptionId: string, address: string) => createHmac('sha256', key).update(`unsubscribe\n${subscriptionId}\n${address}`).digest('base64url');

/** The token of an unsubscribe link for one address of a subscription. */
export function unsubscribeToken(key: string, subscriptionId: string, address: string): string {
  const a = address.toLowerCase();
  return `${subscriptionId}.${Buffer.from(a).toString('base64url')}.${mac(key, subscriptionId, a)}`;
}

/** Where the link of a mail points: the web client's page, which confirms and tells. */
export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl}/unsubscribe?token=${encodeURIComponent(token)}`;

/** Where a mail client's one-click unsubscribe (RFC 8058) posts. */
export const oneClickUrl = (baseUrl: string, token: string) => `${baseUrl}/api/subscriptions/unsubscribe?token=${encodeURIComponent(token)}`;

/** Stops mailing the link's address; answers the subscription's id. A bad or stale link: InvalidUnsubscribeLink. */
export async function unsubscribe(deps: SubscriptionDeps, token: string): Promise<{ address: string }> {
  const [id, encoded, sig] = token.split('.');
  if (!id || !encoded || !sig) throw new InvalidUnsubscribeLink();
  const address = Buffer.from(encoded, 'base64url').toString('utf8');
  if (!constantTimeEqual(sig, mac(deps.linkKey, id, address))) throw new InvalidUnsubscribeLink();
  // A deleted subscription mails no one: the link still answers as done.
  if (await subscriptionById(deps.store, id)) await addUnsubscribe(deps.store, id, address, deps.clock.now());
  return { address };
}
