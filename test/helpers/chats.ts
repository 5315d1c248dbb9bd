// Helpers for chat tests: principals for domain calls, authenticated requests, and chats written
// through the chats domain API (the way the agent will write them).
import { memberPrincipal, type MembershipRow, type OrgRow, type Principal, type UserRow } from '../../src/auth/index.ts';
import { appendMessage, recordAnswer, type AnswerInput } from '../../src/chats/index.ts';
import type { TestApp } from './app.ts';
import { sqliteNow } from './sqlite-now.ts';

/** The principal of a user acting in an organization (their membership's role). */
export function principalOf(t: TestApp, user: UserRow, orgId: string): Principal {
  // Read at once on the SQLite handle, so that the many callers stay synchronous.
  const db = t.app.services.store.sqlite!;
  const [org] = sqliteNow(db, (x) => x.db.selectFrom('organizations').selectAll().where('id', '=', orgId)) as OrgRow[];
  const [membership] = sqliteNow(db, (x) => x.db.selectFrom('memberships').selectAll().where('user_id', '=', user.id).where('org_id', '=', orgId)) as MembershipRow[];
  if (!membership) throw new Error('not a member');
  return memberPrincipal(user, org, membership, 'session', [])!;
}

export function deps(t: TestApp) {
  return { store: t.app.services.chats.store, clock: t.clock };
}

export interface PairSpec {
  question: string;
  answer: string;
  answerData?: AnswerInput;
  hiddenAnswer?: boolean;
}

/** Writes a chat of question/answer pairs; returns the message uuids in order. */
export async function seedChat(t: TestApp, p: Principal, chatId: string, pairs: PairSpec[], opts: { agentic?: boolean } = {}): Promise<string[]> {
  const ids: string[] = [];
  for (const pair of pairs) {
    ids.push((await appendMessage(deps(t), p, { chatId, role: 'user', content: pair.question, agentic: opts.agentic ?? true })).message_uuid);
    ids.push(
      (await recordAnswer(deps(t), p, {
        chatId,
        content: pair.answer,
        credits: 1,
        ...(pair.answerData ? { answer: pair.answerData } : {}),
        ...(pair.hiddenAnswer ? { displayed: false } : {}),
      })).message_uuid,
    );
  }
  return ids;
}

/** A small API client bound to one credential. */
export function client(t: TestApp, credential: string | undefined) {
  const headers = (extra: Record<string, string> = {}) => ({ ...(credential ? { Authorization: `Bearer ${credential}` } : {}), ...extra });
  return {
    get: (path: string) => t.fetch(path, { headers: headers() }),
    post: (path: string, body: unknown) => t.fetch(path, { method: 'POST', headers: headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) }),
    async json<T = Record<string, unknown>>(res: Response | Promise<Response>): Promise<T> {
      return (await (await res).json()) as T;
    },
  };
}

/** The `loc` of each 422 issue. */
export async function locs(res: Response): Promise<unknown[][]> {
  const body = (await res.json()) as { detail: { loc: unknown[] }[] };
  return body.detail.map((d) => d.loc);
}
