// Client ID Metadata Documents make the authorization server fetch a URL a stranger chose; only
// https URLs whose host resolves to public addresses are fetched (no loopback, private or link-local
// targets). DNS could still change between this check and the fetch; the fetch itself is limited
// by the provider (timeout, size, no redirects).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** True when an address is loopback, private, link-local, shared, multicast or unspecified. */
export function isNonPublicAddress(address: string): boolean {
  const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4mapped) return blocked.check(v4mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** True for an https URL whose host resolves only to public addresses. */
export async function isPublicHttpsUrl(url: string, resolve = (host: string) => lookup(host, { all: true })): Promise<boolean> {
  const parsed = URL.parse(url);
  if (!parsed || parsed.protocol !== 'https:') return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return !isNonPublicAddress(host);
  try {
    const addresses = await resolve(host);
    return addresses.length > 0 && addresses.every((a) => !isNonPublicAddress(a.address));
  } catch {
    return false;
  }
}
