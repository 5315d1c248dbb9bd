// Administration- and security-relevant operations whose domains do not audit themselves: the
// gateway writes their entry (actor, organization, target, client address, outcome) around the
// handler, keyed by operationId, so the route tables stay as they are.
import type { Context } from 'koa';
import type { Principal } from '../auth/index.ts';
import { markAudited, writeAudit } from '../auth/index.ts';
import { AppError } from '../errors.ts';
import type { Services } from '../compose/services.ts';

interface Audited {
  action: string;
  targetType: string;
  /** The path parameter naming the target; without it the target id comes from the result. */
  param?: string;
}

const tokens = (action: string, param?: string): Audited => ({ action, targetType: 'token', ...(param ? { param } : {}) });

/** operationId -> what to audit. */
export const AUDITED_OPERATIONS: Record<string, Audited> = {
  create_api_token: tokens('token_created'),
  create_mcp_token: tokens('token_created'),
  create_cli_token: tokens('token_created'),
  admin_create_user_token: tokens('token_created'),
  delete_api_token: tokens('token_revoked', 'token_id'),
  delete_mcp_token: tokens('token_revoked', 'token_id'),
  delete_cli_token: tokens('token_revoked', 'token_id'),
  admin_delete_user_token: tokens('token_revoked', 'token_id'),
  create_connection: { action: 'connection_created', targetType: 'connection' },
  update_connection: { action: 'connection_changed', targetType: 'connection', param: 'connection_id' },
  delete_connection: { action: 'connection_deleted', targetType: 'connection', param: 'connection_id' },
  set_user_attributes: { action: 'user_attributes_changed', targetType: 'user', param: 'user_id' },
  save_group: { action: 'group_saved', targetType: 'group', param: 'group_id' },
  delete_group: { action: 'group_deleted', targetType: 'group', param: 'group_id' },
  merge_environment: { action: 'knowledge_merged', targetType: 'environment', param: 'id' },
  // Table documentation carries the row access rules: its writes are row-filter changes.
  create_knowledge_item: { action: 'knowledge_item_created', targetType: 'knowledge' },
  update_knowledge_item: { action: 'knowledge_item_changed', targetType: 'knowledge', param: 'id' },
  delete_knowledge_item: { action: 'knowledge_item_deleted', targetType: 'knowledge', param: 'id' },
  revert_knowledge_item: { action: 'knowledge_item_reverted', targetType: 'knowledge', param: 'id' },
  revert_knowledge: { action: 'knowledge_reverted', targetType: 'knowledge' },
  set_knowledge_mirror: { action: 'knowledge_mirror_set', targetType: 'knowledge_mirror' },
  delete_knowledge_mirror: { action: 'knowledge_mirror_deleted', targetType: 'knowledge_mirror' },
  logout: { action: 'sign_out', targetType: 'session' },
  admin_set_org_credit_limit: { action: 'credit_limit_changed', targetType: 'organization' },
  admin_set_user_credit_limit: { action: 'credit_limit_changed', targetType: 'user', param: 'user_id' },
  admin_create_workspace: { action: 'workspace_created', targetType: 'workspace' },
  admin_rename_workspace: { action: 'workspace_renamed', targetType: 'workspace', param: 'workspace_id' },
  admin_delete_workspace: { action: 'workspace_deleted', targetType: 'workspace', param: 'workspace_id' },
  admin_set_workspace_member: { action: 'workspace_member_set', targetType: 'workspace', param: 'workspace_id' },
  admin_remove_workspace_member: { action: 'workspace_member_removed', targetType: 'workspace', param: 'workspace_id' },
};

function resultId(result: unknown): string | null {
  if (typeof result !== 'object' || result === null) return null;
  const r = result as Record<string, unknown>;
  const id = r['token_id'] ?? r['id'] ?? r['connection_id'] ?? r['workspace_id'];
  return typeof id === 'string' ? id : null;
}

/** Whether the gateway audits this operation (when a principal makes the call). */
export function isAudited(operationId: string): boolean {
  return Object.hasOwn(AUDITED_OPERATIONS, operationId);
}

/** Runs `handle` and audits it when its operation is listed and a principal made the call. */
export async function audited<T>(s: Services, ctx: Context, p: { operationId: string; principal: Principal | undefined; params: Record<string, unknown> }, handle: () => Promise<T>): Promise<T> {
  const spec = AUDITED_OPERATIONS[p.operationId];
  if (!spec || !p.principal) return handle();
  const principal = p.principal;
  const write = async (outcome: 'success' | 'failure', result: unknown, data: Record<string, unknown>) => {
    const fromParam = spec.param ? p.params[spec.param] : undefined;
    const id = typeof fromParam === 'string' ? fromParam : resultId(result);
    const userId = typeof p.params['user_id'] === 'string' ? p.params['user_id'] : principal.userId;
    const kind = typeof p.params['kind'] === 'string' && spec.param !== 'kind' ? { kind: p.params['kind'] } : {};
    await writeAudit(s.auth, {
      action: spec.action, orgId: principal.orgId, actorId: principal.userId, userId, ip: ctx.ip || undefined, outcome,
      ...(id ? { target: { type: spec.targetType, id } } : {}), data: { ...kind, ...data },
    });
  };
  try {
    const result = await handle();
    await write('success', result, {});
    return result;
  } catch (err) {
    // The caller gets the operation's own error even if the audit write fails too (store closing).
    try {
      await write('failure', undefined, { code: err instanceof AppError ? err.code : 'INTERNAL_ERROR' });
      markAudited(err);
    } catch {
      /* the original error below says what happened */
    }
    throw err;
  }
}
