// One error shape per status, everywhere: every documented /api route is called signed out and as an
// admin with arguments that cannot be right, and each error answer must match the schema the OpenAPI
// document declares for it (HTTPValidationError for 422, ErrorResponse for the others).
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';

type Schema = { $ref?: string; type?: string; required?: string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
type Operation = { responses: Record<string, { content?: Record<string, { schema?: Schema }> }>; requestBody?: { content: Record<string, unknown> } };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

let t0: TestApp;
let doc: Doc;
let adminToken: string;
test.before(async () => {
  t0 = await startTestApp();
  const org = t0.org('acme');
  adminToken = t0.token(t0.user({ orgId: org, role: 'admin' }));
  doc = (await (await t0.fetch('/openapi.json')).json()) as Doc;
});
test.after.always(() => t0.stop());

/** The problems of `value` against a JSON schema (the subset the document uses for error bodies). */
function problems(schema: Schema, value: unknown, at = '$'): string[] {
  if (schema.$ref) return problems(doc.components.schemas[schema.$ref.split('/').at(-1)!]!, value, at);
  if (schema.anyOf) return schema.anyOf.some((s) => problems(s, value, at).length === 0) ? [] : [`${at}: matches no alternative`];
  const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value;
  if (schema.type && schema.type !== actual && !(schema.type === 'number' && actual === 'integer')) return [`${at}: ${actual} where ${schema.type} is documented`];
  if (actual === 'array' && schema.items) return (value as unknown[]).flatMap((v, i) => problems(schema.items!, v, `${at}[${i}]`));
  if (actual !== 'object') return [];
  const obj = value as Record<string, unknown>;
  const missing = (schema.required ?? []).filter((k) => !(k in obj)).map((k) => `${at}.${k}: missing`);
  return [...missing, ...Object.entries(schema.properties ?? {}).flatMap(([k, s]) => (k in obj ? problems(s, obj[k], `${at}.${k}`) : []))];
}

/** The schema an error status is documented with: the operation's own, else the one for every route. */
function documentedSchema(op: Operation | undefined, status: number): Schema {
  const own = op?.responses[String(status)]?.content?.['application/json']?.schema;
  return own ?? { $ref: status === 422 ? '#/components/schemas/HTTPValidationError' : '#/components/schemas/ErrorResponse' };
}

async function errorShapeProblems(method: string, path: string, op: Operation | undefined, token?: string): Promise<string[]> {
  const url = path.replace(/\{[^}]+\}/g, 'no-such-id');
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  // A JSON array fits no documented body, so a route with a body refuses it before doing anything.
  const withBody = op?.requestBody || !['GET', 'HEAD', 'DELETE'].includes(method);
  const res = await t0.fetch(url, { method, headers: { ...headers, ...(withBody ? { 'content-type': 'application/json' } : {}) }, ...(withBody ? { body: '[]' } : {}) });
  if (res.status < 400) {
    await res.body?.cancel();
    return [];
  }
  const label = `${method} ${path} ${token ? 'as admin' : 'signed out'} -> ${res.status}`;
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return [`${label}: not JSON`];
  return problems(documentedSchema(op, res.status), await res.json()).map((p) => `${label}: ${p}`);
}

test('every documented /api route answers its errors in the documented shape, signed out and as an admin', async (t) => {
  const found: string[] = [];
  let calls = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const [method, op] of Object.entries(ops)) {
      for (const token of [undefined, adminToken]) {
        const shape = await errorShapeProblems(method.toUpperCase(), path, op, token);
        found.push(...shape);
        calls++;
      }
    }
  }
  t.true(calls > 300, 'the walk covered the route tables');
  t.deepEqual(found, []);
});

test('the router answers unknown paths with 404 and wrong methods with 405, each with a code', async (t) => {
  const unknown = await t0.fetch('/api/no-such-route', { headers: { authorization: `Bearer ${adminToken}` } });
  t.is(unknown.status, 404);
  const notFound = (await unknown.json()) as { code: string };
  t.deepEqual(problems(documentedSchema(undefined, 404), notFound), []);
  t.is(notFound.code, 'NOT_FOUND');

  const wrongMethod = await t0.fetch('/api/chat_history', { method: 'PUT', headers: { authorization: `Bearer ${adminToken}` } });
  t.is(wrongMethod.status, 405);
  t.regex(wrongMethod.headers.get('allow') ?? '', /GET/);
  const notAllowed = (await wrongMethod.json()) as { code: string };
  t.deepEqual(problems(documentedSchema(undefined, 405), notAllowed), []);
  t.is(notAllowed.code, 'METHOD_NOT_ALLOWED');
});

test('a rule-based refusal answers 422 as HTTPValidationError with its code: an unsupported upload', async (t) => {
  const form = new FormData();
  form.append('chat_id', 'c1');
  form.append('file', new Blob(['MZ']), 'tool.exe');
  const res = await t0.fetch('/api/upload_to_chat', { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form });
  t.is(res.status, 422);
  const body = (await res.json()) as { code: string; detail: { loc: unknown[]; msg: string }[] };
  t.deepEqual(problems(documentedSchema(doc.paths['/api/upload_to_chat']?.['post'], 422), body), []);
  t.is(body.code, 'UNSUPPORTED_FILE_TYPE');
  t.deepEqual(body.detail[0]?.loc, []);
  t.regex(body.detail[0]?.msg ?? '', /Unsupported file type/);
});
