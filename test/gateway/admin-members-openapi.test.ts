// The admin member routes are in the OpenAPI document with their schemas (issue 23).
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

type Op = { operationId: string; security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown>; parameters?: { name: string }[] };

test('every admin member route is documented with credentials, bodies, responses and 422', async (t) => {
  const doc = (await (await t0.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, Op>> };
  const expected: [string, string, string][] = [
    ['get', '/api/admin/members', 'admin_list_members'],
    ['get', '/api/admin/members/{user_id}', 'admin_get_member'],
    ['put', '/api/admin/members/{user_id}/role', 'admin_change_member_role'],
    ['put', '/api/admin/members/{user_id}/attributes', 'admin_set_member_attributes'],
    ['post', '/api/admin/members/{user_id}/deactivate', 'admin_deactivate_member'],
    ['post', '/api/admin/members/{user_id}/reactivate', 'admin_reactivate_member'],
    ['delete', '/api/admin/members/{user_id}', 'admin_remove_member'],
    ['post', '/api/admin/members/{user_id}/unlock', 'admin_unlock_member'],
    ['post', '/api/admin/invitations', 'admin_invite_member'],
    ['get', '/api/admin/invitations', 'admin_list_invitations'],
    ['post', '/api/admin/invitations/{invitation_id}/resend', 'admin_resend_invitation'],
    ['delete', '/api/admin/invitations/{invitation_id}', 'admin_revoke_invitation'],
    ['get', '/api/admin/organization/settings', 'admin_get_org_settings'],
    ['patch', '/api/admin/organization/settings', 'admin_update_org_settings'],
  ];
  for (const [method, path, id] of expected) {
    const op = doc.paths[path]?.[method];
    t.is(op?.operationId, id, `${method} ${path}`);
    t.true((op?.security?.length ?? 0) > 0, `${id} needs a credential`);
    t.truthy(op?.responses['422'] ?? op?.responses['401'], id);
  }
  t.truthy(doc.paths['/api/admin/members']!['get']!.parameters!.find((p) => p.name === 'cursor'));
  t.truthy(doc.paths['/api/admin/invitations']!['post']!.requestBody);
  const accept = doc.paths['/api/auth/invitation/accept']?.['post'];
  t.is(accept?.operationId, 'accept_invitation');
  t.deepEqual(accept?.security ?? [], []);
  t.truthy(accept?.requestBody);
});
