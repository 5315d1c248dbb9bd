// Reading saved questions: the list, one question and its history.
import type { Principal } from '../auth/index.ts';
import { readableQuestion, readableQuestions } from './access.ts';
import type { SavedDeps } from './deps.ts';
import { listQuestions, listVersions } from './questions-store.ts';
import type { SavedQuestion, SavedQuestionVersion } from './schemas.ts';

/** The organization's questions and the caller's private ones, last edited first. */
export async function savedQuestions(deps: SavedDeps, p: Principal): Promise<SavedQuestion[]> {
  return listQuestions(deps.store, p.orgId, p.userId);
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
