// The OpenAPI document the gateway generates from its route schemas passes `redocly lint` with the
// recommended rules, the endpoints mounted beside the router are described and really served, and
// /docs shows request body fields, examples and the streamed events.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MOUNTED_OPERATIONS } from '../../src/gateway/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const redocly = new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url).pathname;

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/**
 * Warnings that describe the API as it is, by rule and operation. Operations that cannot fail with a
 * 4XX (public documents, the health check, starting a CLI sign-in) or that only redirect (SSO and the
 * OAuth authorization endpoint) keep them; the package is private, so the document names no license.
 */
const ACCEPTED: Record<string, string[]> = {
  'info-license': ['#/info'],
  'operation-2xx-response': ['/api/auth/{org_id}/{type}/login get', '/api/auth/{org_id}/{type}/auth get', '/oauth/auth get'],
  'operation-4xx-response': [
    '/.well-known/oauth-protected-resource get',
    '/.well-known/oauth-protected-resource/ai/mcp get',
    '/api/auth/cli/login/start post',
    '/api/cli/dot.skill get',
    '/api/cli/skill get',
    '/api/cli/version get',
    // A constant for the sign-up form: nothing to refuse.
    '/api/auth/password_policy get',
    '/api/health get',
    // Probes: readiness answers 200 or 503; /metrics refuses with 401/404, described in its summary.
    '/api/ready get',
    '/metrics get',
    '/docs get',
    '/oauth/jwks get',
    '/openapi.json get',
    '/oauth/.well-known/openid-configuration get',
    '/.well-known/oauth-authorization-server/oauth get',
  ],
};

/** `#/paths/~1api~1health/get/responses` as `/api/health get`. */
function where(pointer: string): string {
  const m = /^#\/paths\/([^/]+)\/([a-z]+)/.exec(pointer);
  return m ? `${decodeURIComponent(m[1]!.replaceAll('~1', '/').replaceAll('~0', '~'))} ${m[2]}` : pointer;
}

test('the generated document passes redocly lint with the recommended rules', async (t) => {
  const doc = await (await t0.fetch('/openapi.json')).json();
  const file = join(mkdtempSync(join(tmpdir(), 'sextant-openapi-lint-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const run = await promisify(execFile)(process.execPath, [redocly, 'lint', '--extends=recommended', '--format=json', file], { env, maxBuffer: 64 * 1024 * 1024 }).catch((err: { stdout: string }) => err);
  const { problems } = JSON.parse(run.stdout) as { problems: Problem[] };
  const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${where(p.location[0]!.pointer)}: ${p.message}`);
  t.deepEqual(errors, []);
  const unexpected = problems.filter((p) => p.severity === 'warn' && !(ACCEPTED[p.ruleId] ?? []).includes(where(p.location[0]!.pointer)));
  t.deepEqual(unexpected.map((p) => `${p.ruleId} ${where(p.location[0]!.pointer)}: ${p.message}`), []);
});

type Doc = { paths: Record<string, Record<string, { operationId: string; security?: unknown[]; requestBody?: unknown }>>; components: { schemas: Record<string, { oneOf?: unknown[] }> } };

test('public routes declare security: [] and credential routes name the schemes', async (t) => {
  const doc = (await (await t0.fetch('/openapi.json')).json()) as Doc;
  const op = (path: string, method: string) => doc.paths[path]![method]!;
  t.deepEqual(op('/api/health', 'get').security, []);
  t.deepEqual(op('/api/auth/token', 'post').security, []);
  t.true((op('/api/chat_history', 'get').security ?? []).length > 0);
  t.deepEqual(op('/ai/mcp', 'post').security, [{ McpOAuth: ['mcp:tools'] }, { McpToken: [] }]);
  for (const ops of Object.values(doc.paths)) for (const o of Object.values(ops)) t.true(Array.isArray(o.security), `${o.operationId} declares its security`);
});

test('the MCP endpoint and the OAuth endpoints are in the document and answer where it says', async (t) => {
  const doc = (await (await t0.fetch('/openapi.json')).json()) as Doc;
  const paths = MOUNTED_OPERATIONS.map((o) => o.path);
  t.true(paths.includes('/ai/mcp'));
  for (const p of ['/oauth/auth', '/oauth/token', '/oauth/reg', '/oauth/token/revocation', '/oauth/jwks', '/oauth/.well-known/openid-configuration']) t.true(paths.includes(p), p);
  for (const { method, path } of MOUNTED_OPERATIONS) {
    t.truthy(doc.paths[path]?.[method.toLowerCase()], `${method} ${path} documented`);
    const init = method === 'POST' ? { method, headers: { 'content-type': path === '/oauth/reg' || path === '/ai/mcp' ? 'application/json' : 'application/x-www-form-urlencoded' }, body: path === '/oauth/reg' || path === '/ai/mcp' ? '{}' : '' } : { redirect: 'manual' as const };
    const res = await t0.fetch(path, init);
    t.not(res.status, 404, `${method} ${path} is served`);
    t.true(res.status < 500, `${method} ${path} answered ${res.status}`);
  }
  t.is((await t0.fetch('/ai/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 401);
  t.is((await t0.fetch('/oauth/jwks')).status, 200);
});

test('the streamed agent events are documented with their payloads', async (t) => {
  const doc = (await (await t0.fetch('/openapi.json')).json()) as Doc;
  t.is(doc.components.schemas['AgentEvent']?.oneOf?.length, 11);
  const html = await (await t0.fetch('/docs')).text();
  for (const type of ['run_started', 'text_delta', 'tool_call', 'tool_result', 'sql', 'table', 'chart', 'feedback_applied', 'stop_requested', 'error', 'completed']) t.true(html.includes(`<code>${type}</code>`), type);
  t.true(html.includes('<code>df_key</code>'));
});

test('the API reference page shows request body fields, examples, the MCP endpoint and the OAuth endpoints', async (t) => {
  const html = await (await t0.fetch('/docs')).text();
  const block = (id: string) => new RegExp(`<div class="op" id="${id}">(.*?)</div></div>|<div class="op" id="${id}">(.*)`, 's').exec(html)?.[0] ?? '';
  const stream = block('agentic_stream');
  t.regex(stream, /<code>chat_id<\/code><\/td><td>string<\/td><td>required/);
  t.regex(stream, /<code>message<\/code>/);
  t.regex(stream, /Example request/);
  t.regex(html, /<code>\/ai\/mcp<\/code>/);
  t.regex(html, /<code>\/oauth\/token<\/code>/);
  t.regex(html, /Example response \(200\)/);
  t.notRegex(html, /<script/);
});
