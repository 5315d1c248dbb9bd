import test from 'ava';
import { toKoaPath } from '../../src/gateway/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
};

const getDoc = async () => (await (await t0.fetch('/openapi.json')).json()) as Doc;

test('the OpenAPI document is 3.1 at interface version 1.0.0 with the three security schemes', async (t) => {
  const doc = await getDoc();
  t.is(doc.openapi, '3.1.0');
  t.is(doc.info.version, '1.0.0');
  t.like(doc.components.securitySchemes['APIKeyHeader'], { type: 'apiKey', in: 'header', name: 'API-KEY' });
  t.like(doc.components.securitySchemes['APIKeyCookie'], { type: 'apiKey', in: 'cookie' });
  t.like(doc.components.securitySchemes['OAuth2PasswordBearer'], { type: 'oauth2' });
  t.truthy(doc.components.schemas['HTTPValidationError']);
  t.truthy(doc.components.schemas['ValidationError']);
});

test('every registered route is in the document and the document names no route that does not exist', async (t) => {
  const doc = await getDoc();
  const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${toKoaPath(path)}`)));
  const served = new Set(t0.app.served.map((r) => `${r.method} ${r.path}`));
  t.true(served.size > 0);
  t.deepEqual([...served].filter((r) => !documented.has(r)), [], 'served but not documented');
  t.deepEqual([...documented].filter((r) => !served.has(r)), [], 'documented but not served');
});

test('request bodies are named Body_<operationId>', async (t) => {
  const doc = await getDoc();
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops)) {
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        t.is(media.schema.$ref, `#/components/schemas/Body_${op.operationId}`);
      }
    }
  }
  t.pass();
});

test('the API reference page renders the operations', async (t) => {
  const res = await t0.fetch('/docs');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /text\/html/);
  const html = await res.text();
  t.true(html.includes('/api/health'));
});

test('health answers ok with a database round trip', async (t) => {
  const res = await t0.fetch('/api/health');
  t.is(res.status, 200);
  t.like(await res.json(), { status: 'ok', database: 'ok' });
});
