import { InvalidCursor } from '../../errors.ts';
import type { Principal } from '../principal.ts';
import type { MemberStoreDeps } from './deps.ts';
import { memberRows } from './member-rows.ts';
import { memberView, type MemberView } from './member-view.ts';

export interface MemberPage {
  members: MemberView[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

const encodeCursor = (email: string) => Buffer.from(JSON.stringify({ e: email })).toString('base64url');

function decodeCursor(cursor: string): string {
  try {
    const e = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { e?: unknown }).e;
    if (typeof e === 'string') return e;
  } catch {
    // Falls through to the validation error.
  }
  throw new InvalidCursor();
}

/** One page of the organization's members, ordered by email, optionally searched by name or email. */
export async function listMembers(deps: MemberStoreDeps, admin: Principal, { q, cursor, limit = 50 }: { q?: string | undefined; cursor?: string | undefined; limit?: number }): Promise<MemberPage> {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const rows = await memberRows(deps.x, admin.orgId, { q: q?.trim() || undefined, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const facts = await deps.facts.factsOf(admin.orgId, page.map((r) => r.user_id));
  return {
    members: page.map((r) => memberView(r, facts.get(r.user_id))),
    next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.email) : null,
  };
}
