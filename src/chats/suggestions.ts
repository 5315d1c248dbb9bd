// Suggestions without a model call. For a new chat: the user's recent questions that were answered
// with data (never a refused or failed input), then questions built from reports and documented
// tables. After an answer: follow-ups of that answer (another grouping, by month, the year before).
// Every suggestion passes the model's check when the composition root gives one (the offline
// planner), so that a suggested question is one the model answers.
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { readableChat, type ChatStore } from './rows.ts';

export interface SuggestionTable {
  name: string;
  description?: string;
}

export interface SuggestionReport {
  title: string;
  description?: string;
}

/** Where suggestions come from besides the chats; knowledge and the agent implement these at integration. */
export interface SuggestionSources {
  tables(principal: Principal, environmentId: string | undefined): Promise<SuggestionTable[]>;
  reports(principal: Principal, environmentId: string | undefined): Promise<SuggestionReport[]>;
  /** Whether the model answers `question` after `earlier` (a chat's questions); absent: it is not checked. */
  answers?(principal: Principal, environmentId: string | undefined, question: string, earlier: string[]): Promise<boolean>;
  /** Follow-ups of `question` that the model answers; absent: no follow-ups are offered. */
  followUps?(principal: Principal, environmentId: string | undefined, question: string, earlier: string[]): Promise<string[]>;
}

export interface Suggestion {
  text: string;
  kind: 'recent' | 'report' | 'table' | 'follow_up';
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The user message `m` got an answer that ran a query: an assistant message after it, before the next question, with SQL or a table. */
const ANSWERED = sql`EXISTS (SELECT 1 FROM chat_messages a WHERE a.chat_pk = m.chat_pk AND a.role = 'assistant' AND a.position > m.position
  AND (a.answer LIKE '%"sql"%' OR a.answer LIKE '%"df_key"%')
  AND NOT EXISTS (SELECT 1 FROM chat_messages u WHERE u.chat_pk = m.chat_pk AND u.role = 'user' AND u.position > m.position AND u.position < a.position))`;

/** The user's questions whose answer ran a query, newest first (a refusal or a failure has no query). */
async function answeredQuestions(deps: ChatStore, principal: Principal): Promise<string[]> {
  const rows = await deps.store.all(
    sql<{ content: string }>`SELECT m.content FROM chats c JOIN chat_messages m ON m.chat_pk = c.id
     WHERE c.user_id = ${principal.userId} AND c.org_id = ${principal.orgId} AND c.hidden = 0 AND m.role = 'user' AND m.displayed = 1 AND ${ANSWERED}
     ORDER BY c.id DESC, m.position DESC LIMIT 30`,
  );
  return rows.map((r) => r.content);
}

/** Up to `limit` suggestions for a new chat, recent questions first, without duplicates. */
export async function initialSuggestions(
  deps: ChatStore,
  sources: SuggestionSources,
  principal: Principal,
  { environmentId, limit = 6 }: { environmentId?: string; limit?: number } = {},
): Promise<Suggestion[]> {
  const [recent, reports, tables] = await Promise.all([answeredQuestions(deps, principal), sources.reports(principal, environmentId), sources.tables(principal, environmentId)]);
  const candidates: Suggestion[] = [
    ...recent.slice(0, Math.ceil(limit / 2)).map((text) => ({ text, kind: 'recent' as const })),
    ...reports.slice(0, 2).map((r) => ({ text: `Show me the "${r.title}" report`, kind: 'report' as const })),
    // Documented tables (with a description) make better first questions than bare ones.
    ...[...tables.filter((x) => x.description), ...tables.filter((x) => !x.description)].map((t) => ({ text: `How many ${t.name} are there?`, kind: 'table' as const })),
    ...recent.map((text) => ({ text, kind: 'recent' as const })),
  ];
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (out.length >= limit) break;
    const text = clean(c.text);
    const key = text.toLowerCase();
    if (text === '' || text.length > 300 || seen.has(key)) continue;
    seen.add(key);
    // A question read alone, as a new chat would ask it ("and in 2023?" means nothing there).
    if (sources.answers && !(await sources.answers(principal, environmentId, text, []))) continue;
    out.push({ text, kind: c.kind });
  }
  return out;
}

/** Follow-ups of the chat's last answered question, for the person who may read the chat. */
export async function followUpSuggestions(deps: ChatStore, sources: SuggestionSources, principal: Principal, chatId: string, environmentId?: string): Promise<Suggestion[]> {
  const chat = await readableChat(deps.store, principal, chatId);
  if (!sources.followUps) return [];
  const questions = (
    await deps.store.all(
      sql<{ content: string }>`SELECT m.content FROM chat_messages m WHERE m.chat_pk = ${chat.id} AND m.role = 'user' AND m.displayed = 1 AND ${ANSWERED} ORDER BY m.position`,
    )
  );
  const last = questions.at(-1);
  if (!last) return [];
  const earlier = questions.slice(0, -1).map((q) => q.content);
  const asked = new Set(questions.map((q) => clean(q.content).toLowerCase()));
  const followUps = await sources.followUps(principal, environmentId, last.content, earlier);
  return followUps.filter((f) => !asked.has(clean(f).toLowerCase())).map((text) => ({ text, kind: 'follow_up' }));
}
