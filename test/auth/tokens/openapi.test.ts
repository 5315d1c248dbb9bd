import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

test('the token and CLI sign-in endpoints are documented in the OpenAPI document', async (t) => {
  const doc = (await (await t0.fetch('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { operationId: string; security?: unknown }>>;
    components: { schemas: Record<string, unknown> };
  };
  const ops: [string, string, string, boolean][] = [
    ['/api/auth/user/tokens', 'get', 'list_api_tokens', true],
    ['/api/auth/user/tokens', 'post', 'create_api_token', true],
    ['/api/auth/user/tokens/{token_id}', 'delete', 'delete_api_token', true],
    ['/api/auth/admin/users/{user_id}/tokens', 'get', 'admin_list_user_tokens', true],
    ['/api/auth/admin/users/{user_id}/tokens', 'post', 'admin_create_user_token', true],
    ['/api/auth/admin/users/{user_id}/tokens/{token_id}', 'delete', 'admin_delete_user_token', true],
    ['/api/auth/user/tokens/mcp', 'get', 'list_mcp_tokens', true],
    ['/api/auth/user/tokens/mcp', 'post', 'create_mcp_token', true],
    ['/api/auth/user/tokens/mcp/{token_id}', 'delete', 'delete_mcp_token', true],
    ['/api/auth/user/tokens/cli', 'get', 'list_cli_tokens', true],
    ['/api/auth/user/tokens/cli', 'post', 'create_cli_token', true],
    ['/api/auth/user/tokens/cli/{token_id}', 'delete', 'delete_cli_token', true],
    ['/api/auth/cli/login/start', 'post', 'cli_login_start', false],
    ['/api/auth/cli/login/info', 'get', 'cli_login_info', true],
    ['/api/auth/cli/login/complete', 'post', 'cli_login_complete', true],
    ['/api/auth/cli/login/poll', 'get', 'cli_login_poll', false],
  ];
  for (const [path, method, operationId, secured] of ops) {
    const op = doc.paths[path]?.[method];
    t.is(op?.operationId, operationId, `${method} ${path}`);
    // Public routes declare an empty security list; the others name their credential schemes.
    t.is((op?.security as unknown[] | undefined)?.length !== 0, secured, `${operationId} security`);
    if (!secured) t.deepEqual(op?.security, [], `${operationId} declares security: []`);
  }
  for (const body of ['Body_create_api_token', 'Body_admin_create_user_token', 'Body_cli_login_complete']) t.truthy(doc.components.schemas[body], body);
});
