// The outbound address policy for raw TCP hosts (warehouses): the same rules as the HTTP client's,
// answered as the one address the caller then connects to.
import test from 'ava';
import { createOutbound, OutboundFailed } from '../../src/outbound/index.ts';
import { fakeDns } from '../helpers/internal-server.ts';

const dns = fakeDns({
  'public.example': '93.184.216.34',
  'split.attacker.example': ['93.184.216.34', '127.0.0.1'],
  'mapped.attacker.example': '::ffff:127.0.0.1',
  'idp.corp.example': '10.1.2.3',
  'v6.example': '2606:2800:220:1:248:1893:25c8:1946',
  'ula.attacker.example': 'fd00::1',
});

async function outcome(check: (host: string) => Promise<string>, host: string): Promise<string> {
  try {
    return await check(host);
  } catch (err) {
    if (err instanceof OutboundFailed) return err.reason;
    throw err;
  }
}

test('a public name answers the address it resolved to, and a literal public address answers itself', async (t) => {
  const { checkHost } = createOutbound({ lookup: dns });
  t.is(await checkHost('public.example'), '93.184.216.34');
  t.is(await checkHost('v6.example'), '2606:2800:220:1:248:1893:25c8:1946');
  t.is(await checkHost('93.184.216.34'), '93.184.216.34');
});

test('every internal address and every name with one internal address among its answers is refused', async (t) => {
  const { checkHost } = createOutbound({ lookup: dns });
  for (const host of ['127.0.0.1', '[::1]', '::ffff:127.0.0.1', '0.0.0.0', '::', '169.254.169.254', '10.0.0.1', '172.16.0.1', '192.168.1.1', '100.64.0.1', '224.0.0.1', 'fe80::1', 'fc00::1', 'split.attacker.example', 'mapped.attacker.example', 'ula.attacker.example', 'idp.corp.example']) {
    t.is(await outcome(checkHost, host), 'refused', host);
  }
});

test('the operator allows an address, a CIDR or a name, and nothing else comes with them', async (t) => {
  const { checkHost } = createOutbound({ lookup: dns, allow: ['127.0.0.1', '10.0.0.0/8', 'idp.corp.example', 'fd00::/8'] });
  t.is(await checkHost('127.0.0.1'), '127.0.0.1');
  t.is(await checkHost('10.9.9.9'), '10.9.9.9');
  t.is(await checkHost('IDP.corp.example.'), '10.1.2.3');
  t.is(await checkHost('ula.attacker.example'), 'fd00::1');
  for (const host of ['127.0.0.2', '::ffff:127.0.0.1', '169.254.169.254', '0.0.0.0', '192.168.1.1']) t.is(await outcome(checkHost, host), 'refused', host);
});

test('a name that does not resolve is unreachable, an empty host a bad address', async (t) => {
  const { checkHost } = createOutbound({ lookup: dns });
  t.is(await outcome(checkHost, 'does-not-exist.invalid'), 'unreachable');
  t.is(await outcome(checkHost, ' '), 'bad_url');
});
