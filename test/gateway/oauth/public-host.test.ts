import test from 'ava';
import { isNonPublicAddress, isPublicHttpsUrl } from '../../../src/auth/oauth/public-host.ts';

test('loopback, private, link-local and mapped private addresses are not public', (t) => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'not-an-ip']) {
    t.true(isNonPublicAddress(a), a);
  }
  for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:8.8.8.8']) t.false(isNonPublicAddress(a), a);
});

test('only https URLs resolving to public addresses may be fetched as client metadata documents', async (t) => {
  const resolver = (map: Record<string, string[]>) => async (host: string) => (map[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const dns = resolver({ 'client.example': ['93.184.216.34'], 'rebind.example': ['93.184.216.34', '10.0.0.1'], 'internal.example': ['192.168.0.5'] });
  t.true(await isPublicHttpsUrl('https://client.example/oauth/client.json', dns));
  t.false(await isPublicHttpsUrl('http://client.example/oauth/client.json', dns));
  t.false(await isPublicHttpsUrl('https://rebind.example/c.json', dns));
  t.false(await isPublicHttpsUrl('https://internal.example/c.json', dns));
  t.false(await isPublicHttpsUrl('https://unknown.example/c.json', dns));
  t.false(await isPublicHttpsUrl('https://127.0.0.1/c.json', dns));
  t.false(await isPublicHttpsUrl('https://[::1]/c.json', dns));
});
