import test from 'ava';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { fakeMcpPorts, type FakePorts } from '../../helpers/fake-mcp-ports.ts';
import { authorize, CookieJar, MemoryOAuthProvider } from '../../helpers/oauth-browser.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
let ports: FakePorts;
test.before(async () => {
  ports = fakeMcpPorts();
  t0 = await startTestApp({}, { mcpPorts: ports });
});
test.after.always(() => t0.stop());

/** Connects an SDK v1 client through the whole OAuth dance as `user`. */
async function connectV1(app: TestApp, sessionJwt: string, provider = new MemoryOAuthProvider()) {
  const url = new URL(`${app.url}/ai/mcp`);
  const jar = new CookieJar();
  jar.set('sextant_session', sessionJwt);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(first).then(
    () => {
      throw new Error('connected without authorization');
    },
    (err: unknown) => {
      if (!(err instanceof UnauthorizedError)) throw err;
    },
  );
  const code = await authorize(jar, provider.authorizationUrl!);
  await first.finishAuth(code);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const connected = new Client({ name: 'test', version: '1.0.0' });
  await connected.connect(transport);
  return { client: connected, provider, jar, url };
}

test('an SDK v1 client discovers, registers, signs in, consents and calls tools with OAuth', async (t) => {
  const user = t0.user({ orgId: t0.org('flow') });
  const { client, provider } = await connectV1(t0, t0.session(user));
  t.truthy(provider.info?.client_id);
  t.truthy(provider.saved?.refresh_token);
  t.is(provider.saved?.expires_in, 3600);
  const tools = await client.listTools();
  t.deepEqual(tools.tools.map((x) => x.name).sort(), ['ask_question', 'catalog', 'get_result', 'search_knowledge', 'wait']);
  const catalog = await client.callTool({ name: 'catalog', arguments: {} });
  t.like(catalog.structuredContent, { connections: [{ id: 'flow_warehouse' }] });
  t.like(ports.calls.at(-1), { method: 'catalog', userId: user.id, orgId: 'flow' });
  await client.close();
});
