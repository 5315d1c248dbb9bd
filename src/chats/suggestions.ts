// Suggestions for a new chat, without a model call: the user's recent questions, then questions
// built from reports and documented tables that the composition root lets us read.
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import type { ChatStore } from './rows.ts';

export interface SuggestionTable {
  name: string;
  description?: string;
}

export interface SuggestionReport {
  title: string;
  description?: string;
}

/** Where suggestions come from besides the chats; knowledge implements these at integration. */
export interface SuggestionSources {
  tables(principal: Principal, environmentId: string | undefined): Promise<SuggestionTable[]>;
  reports(principal: Principal, environmentId: string | undefined): Promise<SuggestionReport[]>;
}

export interface Suggestion {
  text: string;
  kind: 'recent' | 'report' | 'table';
}

/** Up to `limit` suggestions, recent questions first, without duplicates. */
export async function initialSuggestions(
  deps: ChatStore,
  sources: SuggestionSources,
  principal: Principal,
  { environmentId, limit = 6 }: { environmentId?: string; limit?: number } = {},
): Promise<Suggestion[]> {
  const recent = (
    await deps.store.all(
      sql<{ content: string }>`SELECT m.content FROM chats c JOIN chat_messages m ON m.chat_pk = c.id
       WHERE c.user_id = ${principal.userId} AND c.org_id = ${principal.orgId} AND c.hidden = 0 AND m.role = 'user' AND m.displayed = 1
       ORDER BY c.id DESC, m.position DESC LIMIT 30`,
    )
  ).map((r) => r.content);
  const [reports, tables] = await Promise.all([sources.reports(principal, environmentId), sources.tables(principal, environmentId)]);
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  const add = (text: string, kind: Suggestion['kind']) => {
    const clean = text.replace(/\s+/g, ' ').trim();
    const key = clean.toLowerCase();
    if (clean === '' || clean.length > 300 || seen.has(key) || out.length >= limit) return;
    seen.add(key);
    out.push({ text: clean, kind });
  };
  for (const q of recent.slice(0, Math.ceil(limit / 2))) add(q, 'recent');
  for (const r of reports.slice(0, 2)) add(`Show me the "${r.title}" report`, 'report');
  // Documented tables (with a description) make better first questions than bare ones.
  for (const t of [...tables.filter((x) => x.description), ...tables.filter((x) => !x.description)]) add(`What does ${t.name} tell us?`, 'table');
  for (const q of recent) add(q, 'recent');
  return out;
}
