// The outbound address policy for connections that are not HTTP (warehouse hosts over raw TCP): the
// host is resolved once, every address is checked as request-filtering-agent checks an HTTP request's
// (non-unicast refused unless SEXTANT_OUTBOUND_ALLOW names the host, the address or a CIDR holding it;
// the unspecified address always refused), and the caller connects to the address checked, so DNS
// cannot rebind between the check and the connection.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { normalHost, type AllowList } from './allow-list.ts';
import { OutboundFailed } from './send-request.ts';

/** Resolves a host name and answers the one address to connect to, or rejects with OutboundFailed. */
export type CheckHost = (host: string) => Promise<string>;

const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

function resolveAll(host: string, lookup: LookupFunction): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true }, (err, addresses) => {
      if (err) reject(new OutboundFailed('unreachable', host, err));
      else resolve(Array.isArray(addresses) ? addresses : [{ address: addresses, family: isIP(addresses) }]);
    });
  });
}

function inList(address: ipaddr.IPv4 | ipaddr.IPv6, entries: readonly string[]): boolean {
  return entries.some((entry) => {
    try {
      const [net, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), entry.includes(':') ? 128 : 32];
      if (net.kind() !== address.kind()) return false;
      return (address.match as (range: [typeof net, number]) => boolean).call(address, [net, bits]);
    } catch {
      return false;
    }
  });
}

/** True when request-filtering-agent's rules would let a request reach this address. */
function allowed(raw: string, allow: AllowList, nameAllowed: boolean): boolean {
  if (!ipaddr.isValid(raw)) return false;
  const address = ipaddr.parse(raw);
  const range = address.range();
  if (range === 'unspecified') return false;
  return nameAllowed || inList(address, allow.addresses) || range === 'unicast';
}

/** Builds the check for one allow list; `lookup` replaces DNS (tests give made-up names loopback addresses). */
export function createHostCheck(a: { allow: AllowList; lookup?: LookupFunction | undefined }): CheckHost {
  const lookup = a.lookup ?? (dnsLookup as LookupFunction);
  return async (typed) => {
    const host = unbracket(typed.trim());
    if (!host) throw new OutboundFailed('bad_url', typed);
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveAll(host, lookup);
    const nameAllowed = a.allow.hosts.has(normalHost(host));
    if (addresses.length === 0 || addresses.some(({ address }) => !allowed(address, a.allow, nameAllowed))) throw new OutboundFailed('refused', host);
    return addresses[0]!.address;
  };
}
