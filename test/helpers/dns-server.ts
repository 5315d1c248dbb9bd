// A real DNS server on loopback (dns2, UDP) answering TXT records the test sets, for the service's
// resolver (SEXTANT_DNS_SERVERS). Unknown names answer NXDOMAIN; names in `failing` answer SERVFAIL.
import { createServer, Packet } from 'dns2';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for SEXTANT_DNS_SERVERS. */
  address: string;
  /** TXT records by lower-case name; each record's strings are sent as its character strings. */
  txt: Map<string, string[][]>;
  /** Names answered with SERVFAIL. */
  failing: Set<string>;
  /** Names asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

// RFC 1035 response codes (dns2 has them at run time but does not type them).
const SERVFAIL = 2;
const NXDOMAIN = 3;

/** Starts the server on an ephemeral UDP port of 127.0.0.1. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[][]>();
  const failing = new Set<string>();
  const asked: string[] = [];
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const name = (request.questions[0]?.name ?? '').toLowerCase();
      asked.push(name);
      const records = txt.get(name);
      if (failing.has(name)) response.header.rcode = SERVFAIL;
      else if (!records) response.header.rcode = NXDOMAIN;
      else for (const data of records) response.answers.push(new Packet.Resource({ name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data }));
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { address: `127.0.0.1:${addresses.udp!.port}`, txt, failing, asked, close: () => server.close() };
}
