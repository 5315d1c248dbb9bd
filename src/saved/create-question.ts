// Saving a question: from SQL written by hand, or from an answer's table in a chat.
import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.ts';
import { checkVisibility } from './access.ts';
import type { SavedDeps } from './deps.ts';
import type { AnswerRef } from './ports.ts';
import { findQuestion, insertQuestion } from './questions-store.ts';
import type { ChartSpec, QuestionSource, SavedQuestion, Visibility } from './schemas.ts';

interface Common {
  title: string;
  description?: string | undefined;
  visibility?: Visibility | undefined;
  /** Overrides the answer's chart (or sets one for hand-written SQL). */
  chart?: ChartSpec | undefined;
}

/** A question written by hand, or one saved from an answer (`from`). */
export type NewQuestion = Common & ({ connection_id: string; sql: string; from?: undefined } | { from: { chat_id: string } & AnswerRef });

/** Saves a question owned by the caller, version 1. */
export async function createQuestion(deps: SavedDeps, p: Principal, q: NewQuestion): Promise<SavedQuestion> {
  const visibility = q.visibility ?? 'private';
  checkVisibility(p, visibility);
  const base = await contentOf(deps, p, q);
  const id = `sq_${randomBytes(9).toString('base64url')}`;
  const fields = { title: q.title, description: q.description ?? '', visibility, chart: q.chart ?? base.chart ?? null, ...base.content };
  await insertQuestion(deps.store, { id, orgId: p.orgId, ownerId: p.userId, at: deps.clock.now(), fields, source: base.source });
  return (await findQuestion(deps.store, p.orgId, id))!;
}

/** The SQL, connection, chart and commit: the caller's own, or the answer's (read under chats' rules). */
async function contentOf(deps: SavedDeps, p: Principal, q: NewQuestion) {
  if (!q.from) {
    await deps.ports.checkStatement(p, { connectionId: q.connection_id, sql: q.sql });
    return { content: { connection_id: q.connection_id, sql: q.sql, knowledge_commit: null }, chart: null, source: null };
  }
  const { chat_id, ...at } = q.from;
  const a = await deps.ports.answer(p, chat_id, at);
  const source: QuestionSource = { chat_id: a.chatId, message_uuid: a.messageUuid, df_key: a.dfKey };
  return { content: { connection_id: a.connectionId, sql: a.sql, knowledge_commit: a.knowledgeCommit }, chart: a.chart, source };
}
