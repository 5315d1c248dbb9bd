// Which reverse proxies are believed, and the client address they saw. An appending proxy (nginx's
// `proxy_add_x_forwarded_for`, Caddy, most load balancers) adds the address it was connected from to
// the right of `X-Forwarded-For`, after whatever the client sent; so only the entries our own
// proxies added can be believed, and the client is the rightmost address no trusted hop vouches for.
import { BlockList, isIP } from 'node:net';

/** Trusted hops: a number of proxies in front of the service, or the networks they connect from. */
export type TrustedProxies = { hops: number } | { cidrs: string[] };

/** Parses `SEXTANT_TRUSTED_PROXIES`: a hop count (`1`), or addresses and CIDRs (`10.0.0.0/8, ::1`). */
export function parseTrustedProxies(value: string): TrustedProxies {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 32) throw new Error('a hop count must be between 1 and 32');
    return { hops };
  }
  const cidrs = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (cidrs.length === 0) throw new Error('expected a hop count or a list of addresses and CIDRs');
  for (const cidr of cidrs) subnetOf(cidr);
  return { cidrs };
}

/** `10.0.0.0/8` -> its network, prefix and family; a bare address is a one-address network. */
function subnetOf(cidr: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [addr = '', bits, extra] = cidr.split('/');
  const version = isIP(addr);
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (version === 0 || extra !== undefined || !(prefix >= 0 && prefix <= max)) throw new Error(`${cidr} is not an IP address or CIDR`);
  return { network: addr, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The canonical form of one address as proxies and sockets write it (port, brackets, IPv4-mapped), or undefined. */
export function parseAddress(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s);
  if (bracketed) s = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  const version = isIP(s);
  if (version === 4) return s;
  if (version !== 6 || s.includes('%')) return undefined;
  const lower = s.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/.exec(lower);
  return mapped ? mapped[1] : lower;
}

/** Decides, per request, which forwarded addresses count. */
export interface ProxyTrust {
  /** Whether the peer that connected is one of our proxies (so its `X-Forwarded-*` headers count). */
  trustsPeer(peer: string | undefined): boolean;
  /** The client's address: the peer, or the rightmost forwarded address no trusted hop vouches for. */
  clientAddress(peer: string | undefined, forwardedFor: string): string | undefined;
}

/** `trusted` undefined: no proxy is believed, the client is the peer. */
export function proxyTrust(trusted: TrustedProxies | undefined): ProxyTrust {
  if (!trusted) return { trustsPeer: () => false, clientAddress: (peer) => parseAddress(peer) };
  const list = 'cidrs' in trusted ? blockList(trusted.cidrs) : undefined;
  const isTrusted = (addr: string | undefined, index: number, chain: number): boolean => {
    if (addr === undefined) return false;
    // Hop counting: the peer and the entries the hops before it appended (the last `hops` of the chain).
    if (!list) return index >= chain - ('hops' in trusted ? trusted.hops : 0);
    return list.check(addr, isIP(addr) === 4 ? 'ipv4' : 'ipv6');
  };
  return {
    trustsPeer: (peer) => isTrusted(parseAddress(peer), 0, 1),
    clientAddress(peer, forwardedFor) {
      const chain = [...(forwardedFor ? forwardedFor.split(',') : []).map((s) => parseAddress(s)), parseAddress(peer)];
      let i = chain.length - 1;
      while (i > 0 && isTrusted(chain[i], i, chain.length)) i -= 1;
      // An entry that is no address was not written by a trusted hop: the hop to its right is the client we know.
      for (let j = i; j < chain.length; j += 1) if (chain[j] !== undefined) return chain[j];
      return undefined;
    },
  };
}

/** The networks as one list; addresses are unmapped first (a dual-stack socket reports ::ffff:a.b.c.d). */
function blockList(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const { network, prefix, family } = subnetOf(cidr);
    list.addSubnet(network, prefix, family);
  }
  return list;
}
