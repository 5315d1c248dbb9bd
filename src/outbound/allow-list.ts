// The operator's exceptions to the outbound guard (SEXTANT_OUTBOUND_ALLOW): host names are matched
// against the URL's host as typed, addresses and CIDRs against the address the name resolved to.
import { isIP } from 'node:net';

/** The allow list split into what request-filtering-agent checks (addresses) and what we check (names). */
export interface AllowList {
  /** Lower-case host names without a trailing dot: any address they resolve to is allowed. */
  hosts: Set<string>;
  /** Single addresses and CIDRs, for request-filtering-agent's `allowIPAddressList`. */
  addresses: string[];
}

/** True for `10.0.0.0/8`, `fd00::/8`, `127.0.0.1` or `::1`. */
export function isAddressOrCidr(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** Lower-cases a host name and drops a trailing dot, so `Idp.Corp.` and `idp.corp` are one name. */
export const normalHost = (host: string) => host.toLowerCase().replace(/\.$/, '');

/** Splits the configured entries; the configuration has already refused malformed ones. */
export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const addresses: string[] = [];
  for (const entry of entries.map((e) => e.trim()).filter(Boolean)) {
    if (isAddressOrCidr(entry)) addresses.push(entry);
    else hosts.add(normalHost(entry));
  }
  return { hosts, addresses };
}
