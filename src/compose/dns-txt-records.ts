// Email-domain verification's DNS port: TXT lookups through node:dns, asking the servers of
// SEXTANT_DNS_SERVERS (tests run one on loopback) or, without it, the system's.
import { Resolver } from 'node:dns/promises';
import type { TxtRecords } from '../auth/email-domains/index.ts';

// A name without records answers like one without TXT records; anything else means DNS did not answer.
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

/** The TXT resolver, one per service: 3 s per attempt, two attempts. */
export function dnsTxtRecords(servers: string[] | undefined): TxtRecords {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers) resolver.setServers(servers);
  return {
    async lookup(name) {
      try {
        return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
      } catch (err) {
        if (NO_RECORD.has((err as { code?: string }).code ?? '')) return [];
        return undefined;
      }
    },
  };
}
