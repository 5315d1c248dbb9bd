// Reading saved questions: the list, one question and its history.
import type { Principal } from '../auth/index.ts';
import { InvalidCursor } from '../errors.ts';
import { readableQuestion, readableQuestions } from './access.ts';
import type { SavedDeps } from './deps.ts';
import { listQuestions, listVersions } from './questions-store.ts';
import { decodeKeyset, encodeKeyset } from '../store/index.ts';
import type { SavedQuestion, SavedQuestionVersion } from './schemas.ts';

/**
 * A page of the list: `limit` questions after `cursor` (the previous page's next_cursor); every one
 * from the cursor on without a limit. With `q`, only those whose title or description contains it.
 */
export interface ListPage {
  q?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

const encodeCursor = (q: SavedQuestion) => encodeKeyset({ at: Date.parse(q.updated_at), id: q.id });

/** The organization's questions and the caller's private ones, last edited first, a page at a time (those matching `q` when given). */
export async function savedQuestions(deps: SavedDeps, p: Principal, page: ListPage = {}): Promise<{ questions: SavedQuestion[]; next_cursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeKeyset(page.cursor);
  if (page.cursor !== undefined && !after) throw new InvalidCursor();
  const rows = await listQuestions(deps.store, p.orgId, p.userId, { q: page.q?.trim() || undefined, after, limit: page.limit === undefined ? undefined : page.limit + 1 });
  const more = page.limit !== undefined && rows.length > page.limit;
  const questions = more ? rows.slice(0, page.limit) : rows;
  return { questions, next_cursor: more ? encodeCursor(questions[questions.length - 1]!) : null };
}

/** One question the caller may read. */
export const savedQuestion = readableQuestion;

/** The questions of `ids` the caller may read, by id, in one read. */
export const savedQuestionsById = readableQuestions;

/** Every version of a question the caller may read, newest first. */
export async function questionVersions(deps: SavedDeps, p: Principal, id: string): Promise<SavedQuestionVersion[]> {
  await readableQuestion(deps, p, id);
  return listVersions(deps.store, id);
}
