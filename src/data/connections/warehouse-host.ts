// Warehouse hosts obey the outbound address policy (SEXTANT_OUTBOUND_ALLOW): an organization's admin
// must not point the server at its own database, cloud metadata or other internal hosts. Checked when
// a connection is saved and again at every connect, where the driver gets the checked address.
import { createHostCheck, OutboundFailed, parseAllowList, type CheckHost } from '../../outbound/index.ts';
import type { ConnectionSettings } from '../drivers/driver.ts';
import { ConnectionHostRefused } from '../errors.ts';

// Without the composition root's check (a caller building deps by hand) only public addresses pass.
const PUBLIC_ONLY = createHostCheck({ allow: parseAllowList([]) });

/** Resolves and checks a warehouse host; answers the address to connect to or throws ConnectionHostRefused. */
export async function checkWarehouseHost(check: CheckHost | undefined, host: string): Promise<string> {
  try {
    return await (check ?? PUBLIC_ONLY)(host);
  } catch (err) {
    if (err instanceof OutboundFailed) throw new ConnectionHostRefused(host, err.reason === 'unreachable' ? 'unresolved' : 'refused');
    throw err;
  }
}

/** The settings a server driver connects with: the checked address, the typed name kept for TLS. */
export async function pinWarehouseHost(check: CheckHost | undefined, settings: ConnectionSettings): Promise<ConnectionSettings> {
  const host = settings.host ?? '';
  const address = await checkWarehouseHost(check, host);
  return { ...settings, host: address, tlsServername: host };
}
