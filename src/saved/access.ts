// Who sees and who changes a saved question. Private ones are their owner's alone (everyone else,
// admins included, gets NotFound); organization ones are every member's to read and run.
import { hasRole, type Principal } from '../auth/index.ts';
import type { SavedDeps } from './deps.ts';
import { EditForbidden, PublishForbidden, QuestionNotFound } from './errors.ts';
import { findQuestion, findQuestions } from './questions-store.ts';
import type { SavedQuestion, Visibility } from './schemas.ts';

/** May `p` read `q`: organization questions are every member's, private ones their owner's alone. */
const readable = (p: Principal, q: SavedQuestion) => q.visibility !== 'private' || q.owner_id === p.userId;

/** The question if the caller may read it, else QuestionNotFound. */
export async function readableQuestion(deps: SavedDeps, p: Principal, id: string): Promise<SavedQuestion> {
  const q = await findQuestion(deps.store, p.orgId, id);
  if (!q || !readable(p, q)) throw new QuestionNotFound();
  return q;
}

/** Of the questions `ids`, those the caller may read, by id, in one read (a missing or unreadable one is absent). */
export async function readableQuestions(deps: SavedDeps, p: Principal, ids: readonly string[]): Promise<Map<string, SavedQuestion>> {
  const found = await findQuestions(deps.store, p.orgId, ids);
  return new Map(found.filter((q) => readable(p, q)).map((q) => [q.id, q]));
}

/** The question if the caller may change it: its owner, or an admin for an organization question. */
export async function editableQuestion(deps: SavedDeps, p: Principal, id: string): Promise<SavedQuestion> {
  const q = await readableQuestion(deps, p, id);
  if (q.owner_id !== p.userId && !hasRole(p, 'admin')) throw new EditForbidden();
  return q;
}

/**
 * Publishing to the organization follows the nearest rule of the interface: knowledge the whole
 * organization sees is changed by admins and modelers; regular users keep private questions.
 */
export function checkVisibility(p: Principal, visibility: Visibility, before?: Visibility): void {
  if (visibility === 'organization' && before !== 'organization' && !hasRole(p, 'modeler')) throw new PublishForbidden();
}
