// Every refused request on an administrative route leaves one failure entry in the organization's
// audit log (issue 33): a modeler making itself admin, an analyst on an admin page, a member id of
// another organization, a refused SSO save, a spent quota. A refusal the operation audited itself
// (marked with markAudited) is not written twice.
import type { Context } from 'koa';
import { markAudited, wasAudited, writeAudit, type Principal } from '../auth/index.ts';
import { AppError } from '../errors.ts';
import type { Services } from '../compose/services.ts';
import { AUDITED_OPERATIONS } from './audited-operations.ts';
import { clientInfo } from './client-info.ts';
import type { RouteDef } from './route.ts';

/** The action a refused call is filed under: what the operation's success entry is called. */
const ADMIN_ACTIONS: Record<string, string> = {
  admin_change_member_role: 'member_role_changed',
  admin_set_member_attributes: 'member_attributes_changed',
  admin_deactivate_member: 'member_deactivated',
  admin_reactivate_member: 'member_reactivated',
  admin_remove_member: 'member_removed',
  admin_unlock_member: 'member_unlocked',
  admin_invite_member: 'invitation_created',
  admin_resend_invitation: 'invitation_resent',
  admin_revoke_invitation: 'invitation_revoked',
  admin_update_org_settings: 'org_settings_changed',
  admin_add_sso_provider: 'sso_provider_added',
  admin_change_sso_provider: 'sso_provider_changed',
  admin_remove_sso_provider: 'sso_provider_removed',
  admin_test_sso_provider: 'sso_provider_tested',
  admin_reset_user_mfa: 'mfa_admin_reset',
};

/** Path parameters that name what was acted on, and the target type each names. */
const TARGET_PARAMS: [param: string, type: string][] = [
  ['token_id', 'token'],
  ['invitation_id', 'invitation'],
  ['connection_id', 'connection'],
  ['group_id', 'group'],
  ['user_id', 'user'],
];

/** Routes whose refusals are audited: those for admins, and everything under an admin path. */
export function isAdministrative(def: Pick<RouteDef, 'role' | 'path'>): boolean {
  return def.role === 'admin' || /^\/api\/(auth\/)?admin\//.test(def.path);
}

// Not refusals of an attempt: no credential (nobody to name), and the service's own failures.
const isRefusal = (err: unknown): err is AppError => err instanceof AppError && err.kind !== 'unauthorized' && err.kind !== 'unavailable';

function textParam(params: Record<string, unknown>, name: string): string | undefined {
  const v = params[name];
  return typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : undefined;
}

function targetOf(def: RouteDef, params: Record<string, unknown>): { type: string; id: string } | undefined {
  const spec = AUDITED_OPERATIONS[def.operationId];
  const own = spec?.param ? textParam(params, spec.param) : undefined;
  if (spec && own) return { type: spec.targetType, id: own };
  for (const [param, type] of TARGET_PARAMS) {
    const id = textParam(params, param);
    if (id) return { type, id };
  }
  const id = textParam(params, 'id');
  return id ? { type: def.path.includes('/sso/') ? 'sso_provider' : 'resource', id } : undefined;
}

async function recordRefusal(s: Services, ctx: Context, def: RouteDef, principal: Principal, err: AppError): Promise<void> {
  const params = (ctx.params ?? {}) as Record<string, unknown>;
  const target = targetOf(def, params);
  await writeAudit(s.auth, {
    action: AUDITED_OPERATIONS[def.operationId]?.action ?? ADMIN_ACTIONS[def.operationId] ?? def.operationId,
    orgId: principal.orgId,
    actorId: principal.userId,
    userId: textParam(params, 'user_id') ?? principal.userId,
    ip: clientInfo(ctx).ip,
    outcome: 'failure',
    ...(target ? { target } : {}),
    data: { code: err.code, operation: def.operationId },
  });
  markAudited(err);
}

/** Wraps an administrative route's handler: a refusal nobody audited yet gets its failure entry. */
export function auditAdminRefusals(s: Services, def: RouteDef, handle: (ctx: Context) => Promise<void>) {
  return async function auditedAdminRoute(ctx: Context): Promise<void> {
    try {
      await handle(ctx);
    } catch (err) {
      const principal = ctx.state['principal'] as Principal | undefined;
      if (principal && isRefusal(err) && !wasAudited(err)) {
        // The caller gets the refusal even if the entry cannot be written (store closing).
        await recordRefusal(s, ctx, def, principal, err).catch(() => undefined);
      }
      throw err;
    }
  };
}
