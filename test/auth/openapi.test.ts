import test from 'ava';
import { startAuthApp } from '../helpers/auth.ts';

test('the OpenAPI document lists the account endpoints with their request bodies and the password flow', async (t) => {
  const t0 = await startAuthApp();
  try {
    const res = await t0.fetch('/openapi.json');
    t.is(res.status, 200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { operationId: string }>>; components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> } };
    for (const path of [
      '/api/auth/token',
      '/api/auth/token/mfa',
      '/api/auth/mfa/setup',
      '/api/auth/admin/users/{user_id}/mfa/reset',
      '/api/auth/mfa/recovery/info',
      '/api/auth/{org_id}/{type}/login',
      '/api/auth/user_memory/{memory_id}',
      '/api/auth/set_my_default_workspace',
    ]) {
      t.truthy(doc.paths[path], path);
    }
    t.truthy(doc.components.schemas['Body_login_for_access_token']);
    t.truthy(doc.components.schemas['Body_set_my_default_workspace']);
  } finally {
    await t0.stop();
  }
});
