// Channels as stored: a webhook's URL is its credential (Slack's and Teams' incoming webhooks carry
// their secret in the path), so it is sealed at rest with the service's secret box, and shown whole
// only to the subscription's owner (others, admins included, see its origin).
import type { SecretBox } from '../security/index.ts';
import type { Channel } from './schemas.ts';

/** The channels' JSON for the store, webhook URLs sealed. */
export function sealChannels(box: SecretBox, channels: Channel[]): string {
  return JSON.stringify(channels.map((c) => (c.type === 'webhook' ? { ...c, url: box.seal(c.url) } : c)));
}

/** The channels of a stored row, webhook URLs opened. */
export function openChannels(box: SecretBox, text: string): Channel[] {
  return (JSON.parse(text) as Channel[]).map((c) => (c.type === 'webhook' ? { ...c, url: box.open(c.url) } : c));
}

/** What someone other than the owner sees of the channels: a webhook's origin, not its secret path. */
export function maskChannels(channels: Channel[]): Channel[] {
  return channels.map((c) => (c.type === 'webhook' ? { ...c, url: `${new URL(c.url).origin}/…` } : c));
}
