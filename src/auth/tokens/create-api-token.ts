// General API tokens: created by a user for themselves, or by an admin for a member of their
// organization. The token acts with its user's permissions as they are at each request.
import { ValidationFailed } from '../../errors.ts';
import { insertToken } from './api-tokens.ts';
import { SCOPE_API_FULL, type Principal } from '../principal.ts';
import type { TokenDeps } from './deps.ts';
import { requireAdminOfMember } from './member-check.ts';
import { toTokenView, type CreatedToken } from './token-view.ts';

const DAY_MS = 24 * 3600 * 1000;

export interface NewApiToken {
  /** The token's user; defaults to the caller. Another user needs the caller to be an admin of the org. */
  userId?: string;
  name: string;
  description?: string;
  /** Lifetime in days; undefined or null: never expires. */
  expiresInDays?: number | null;
}

/** Creates a general API token and returns it with its value, shown this once. */
export async function createApiToken(deps: TokenDeps, principal: Principal, input: NewApiToken): Promise<CreatedToken> {
  const userId = input.userId ?? principal.userId;
  if (userId !== principal.userId) await requireAdminOfMember(deps, principal, userId);
  const name = input.name.trim();
  if (!name) throw new ValidationFailed([{ loc: ['body', 'name'], msg: 'Name must not be blank', type: 'value_error' }]);
  const days = input.expiresInDays ?? null;
  const now = deps.clock.now();
  const { value, row } = await insertToken(deps.store, deps.clock, {
    userId,
    orgId: principal.orgId,
    kind: 'api',
    scopes: [SCOPE_API_FULL],
    name,
    description: (input.description ?? '').trim(),
    expiresAt: days === null ? null : now + days * DAY_MS,
    createdBy: principal.userId,
  });
  return { ...toTokenView(row, now), token: value };
}
