// The guarded outbound client as an attacker meets it: every spelling of an internal address is
// refused before a byte is sent (the internal server hears nothing), names are judged by the address
// they resolve to at connect time, no redirect is followed, and only what the operator allowed passes.
import test from 'ava';
import { createOutbound, OutboundFailed } from '../../src/outbound/index.ts';
import { fakeDns, startInternalServer, type InternalServer } from '../helpers/internal-server.ts';

let internal: InternalServer;
/** Where the redirector points: an internal server of its own, so that other tests' hits do not count. */
let target: InternalServer;
let redirector: InternalServer;
const dns = fakeDns({ 'idp.attacker.example': '127.0.0.1', 'mapped.attacker.example': '::ffff:127.0.0.1', 'metadata.attacker.example': '169.254.169.254', 'public.example': '127.0.0.1' });

test.before(async () => {
  internal = await startInternalServer();
  target = await startInternalServer();
  redirector = await startInternalServer((_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${target.port}/internal/after-redirect` });
    res.end();
  });
});
test.after.always(async () => {
  await internal?.stop();
  await redirector?.stop();
  await target?.stop();
});

/** The reason a request failed, or its status when it was answered. */
async function outcome(p: Promise<Response>): Promise<string | number> {
  try {
    return (await p).status;
  } catch (err) {
    return err instanceof OutboundFailed ? err.reason : `unexpected ${String(err)}`;
  }
}

const internalSpellings = () => [
  `http://127.0.0.1:${internal.port}/`,
  `http://localhost:${internal.port}/`,
  `http://2130706433:${internal.port}/`,
  `http://0x7f000001:${internal.port}/`,
  `http://0177.0.0.1:${internal.port}/`,
  `http://127.1:${internal.port}/`,
  `http://0.0.0.0:${internal.port}/`,
  `http://[::1]:${internal.port}/`,
  `http://[::]:${internal.port}/`,
  `http://[::ffff:127.0.0.1]:${internal.port}/`,
  `http://[::ffff:7f00:1]:${internal.port}/`,
  `http://idp.attacker.example:${internal.port}/`,
  `http://mapped.attacker.example:${internal.port}/`,
  `http://IDP.Attacker.Example.:${internal.port}/`,
];

test.serial('every spelling of a loopback or unspecified address is refused and the internal server receives nothing', async (t) => {
  const outbound = createOutbound({ lookup: dns });
  for (const url of internalSpellings()) {
    t.is(await outcome(outbound.fetch(url, { method: 'POST', body: 'x', headers: { authorization: 'Basic c2VjcmV0' } })), 'refused', url);
  }
  t.deepEqual(internal.hits, []);
});

test('private, link-local, CGNAT, multicast, unique-local and cloud metadata addresses are refused before connecting', async (t) => {
  const outbound = createOutbound({ lookup: dns });
  for (const host of ['10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.254', '224.0.0.1', '255.255.255.255', '[fe80::1]', '[fc00::1]', '[fd00:ec2::254]', '[::ffff:10.0.0.1]', '[::ffff:169.254.169.254]', 'metadata.attacker.example', '[64:ff9b::7f00:1]', '[2002:7f00:1::]']) {
    t.is(await outcome(outbound.fetch(`http://${host}/latest/meta-data/`, { signal: AbortSignal.timeout(5000) })), 'refused', host);
  }
});

test('a host name is judged by the address it resolves to when the socket connects, not by how it looks', async (t) => {
  const outbound = createOutbound({ lookup: fakeDns({ 'public.example': '127.0.0.1' }) });
  t.is(await outcome(outbound.fetch(`http://public.example:${internal.port}/`)), 'refused');
  t.is(await outcome(outbound.git.request({ url: `http://public.example:${internal.port}/repo.git/info/refs?service=git-receive-pack` }).then(() => new Response(null))), 'refused');
});

test('a name with a public and an internal address is refused: the addresses checked are the ones the socket may use', async (t) => {
  const outbound = createOutbound({ lookup: fakeDns({ 'rebind.attacker.example': ['93.184.216.34', '127.0.0.1'] }) });
  t.is(await outcome(outbound.fetch(`http://rebind.attacker.example:${target.port}/`)), 'refused');
  t.is(await outcome(outbound.git.request({ url: `http://rebind.attacker.example:${target.port}/r.git/info/refs` }).then(() => new Response(null))), 'refused');
  t.deepEqual(target.hits.filter((h) => !h.url.startsWith('/internal/')), []);
});

test('a redirect is never followed, so it cannot lead to an internal address', async (t) => {
  const outbound = createOutbound({ allow: ['redirector.example'], lookup: fakeDns({ 'redirector.example': '127.0.0.1' }) });
  const url = `http://redirector.example:${redirector.port}/.well-known/openid-configuration`;
  const res = await outbound.fetch(url);
  t.is(res.status, 302);
  t.is(await outcome(outbound.fetch(url, { redirect: 'error' })), 'unreachable');
  t.is(await outcome(outbound.fetch(url, { redirect: 'follow' })), 302);
  t.deepEqual(target.hits, []);
  t.is(redirector.hits.length, 3);
});

test('the operator allows internal hosts by address, by CIDR or by name, and nothing else with them', async (t) => {
  const byAddress = createOutbound({ allow: ['127.0.0.1'], lookup: dns });
  t.is(await outcome(byAddress.fetch(`http://127.0.0.1:${internal.port}/a`)), 200);
  t.is(await outcome(byAddress.fetch(`http://10.0.0.1:${internal.port}/a`)), 'refused');
  t.is(await outcome(byAddress.fetch(`http://[::ffff:127.0.0.1]:${internal.port}/a`)), 'refused');
  const byCidr = createOutbound({ allow: ['127.0.0.0/8'] });
  t.is(await outcome(byCidr.fetch(`http://127.0.0.1:${internal.port}/b`)), 200);
  const byName = createOutbound({ allow: ['idp.corp.example'], lookup: fakeDns({ 'idp.corp.example': '127.0.0.1' }) });
  const res = await byName.fetch(`http://IDP.corp.example:${internal.port}/c`, { method: 'POST', body: new URLSearchParams({ a: '1' }) });
  t.is(res.status, 200);
  t.like(await res.json(), { secret: 'internal-secret-value' });
  t.is(await outcome(byName.fetch(`http://127.0.0.1:${internal.port}/d`)), 'refused');
  t.deepEqual(internal.hits.slice(-3).map((h) => h.url), ['/a', '/b', '/c']);
});

test('an address that does not answer fails as unreachable, and only http and https are spoken', async (t) => {
  const outbound = createOutbound({ allow: ['127.0.0.1'] });
  t.is(await outcome(outbound.fetch('http://127.0.0.1:9/')), 'unreachable');
  t.is(await outcome(outbound.fetch('file:///etc/passwd')), 'bad_url');
  t.is(await outcome(outbound.fetch('ftp://127.0.0.1/')), 'bad_url');
});
