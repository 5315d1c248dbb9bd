// What an attacker aims the gateway at: a loopback HTTP server standing for an internal service, which
// records every request it receives (the outbound tests assert it received none), and a DNS stand-in
// that gives made-up public-looking names the addresses a test chooses.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';

export interface InternalServer {
  port: number;
  /** Method, path and Authorization header of every request received. */
  hits: { method: string; url: string; authorization: string | undefined }[];
  stop(): Promise<void>;
}

/** Listens on all interfaces (so 0.0.0.0, ::ffff:127.0.0.1 and 127.0.0.1 all reach it); answers with `handler` or a secret JSON body. */
export async function startInternalServer(handler?: (req: IncomingMessage, res: ServerResponse) => void): Promise<InternalServer> {
  const hits: InternalServer['hits'] = [];
  const server = createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    if (handler) return handler(req, res);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ issuer: 'internal-secret-issuer', secret: 'internal-secret-value' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A lookup that answers `names` itself (one address, or several in order) and asks the real DNS for the rest. */
export function fakeDns(names: Record<string, string | string[]>): LookupFunction {
  const lookup = (hostname: string, options: { all?: boolean }, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    const found = names[hostname.toLowerCase().replace(/\.$/, '')];
    if (found === undefined) return dnsLookup(hostname, options as never, callback as never);
    const all = (Array.isArray(found) ? found : [found]).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options.all) return process.nextTick(() => callback(null, all));
    process.nextTick(() => callback(null, all[0]!.address, all[0]!.family));
  };
  return lookup as unknown as LookupFunction;
}
