// The saved-questions domain's ports: answers as chats keep them, connections and the governed
// query pipeline of the data plane (the same path as POST /api/execute_query).
import { findAnswerSource, type AnswerLocator, type ChatDeps } from '../chats/index.ts';
import { checkStatement, executeQuery } from '../data/index.ts';
import type { DataDeps } from '../data/deps.ts';
import type { AnswerRef, SavedPorts } from '../saved/index.ts';

/** What the agent records while a repository has no commit yet (agent-ports.ts): nothing to pin. */
const EMPTY = 'empty';

/** Chats keep a chart's spec untyped; a Vega-Lite spec is an object. */
const isSpec = (spec: unknown): spec is Record<string, unknown> => typeof spec === 'object' && spec !== null && !Array.isArray(spec);

const locator = (at: AnswerRef): AnswerLocator => ('dfKey' in at ? { dfKey: at.dfKey } : 'messageUuid' in at ? { messageUuid: at.messageUuid } : { latest: true });

/** Saved questions read answers through chats' access rules and run SQL through the data plane. */
export function savedPorts(chats: ChatDeps, data: DataDeps): SavedPorts {
  return {
    async answer(p, chatId, at) {
      const a = await findAnswerSource(chats, p, chatId, locator(at));
      const charts = a.message.answer?.charts ?? [];
      const chart = (a.df_key ? charts.find((c) => c.df_key === a.df_key) : undefined) ?? charts[0];
      const commit = a.message.knowledge_commit;
      return {
        chatId: a.chat_id,
        messageUuid: a.message.message_uuid,
        dfKey: a.df_key ?? null,
        connectionId: a.connection_id,
        sql: a.sql,
        chart: isSpec(chart?.spec) ? chart.spec : null,
        knowledgeCommit: commit && commit !== EMPTY ? commit : null,
      };
    },
    async checkStatement(p, q) {
      await checkStatement(data, p.orgId, q.connectionId, q.sql);
    },
    async query(p, q) {
      const r = await executeQuery(data, {
        principal: p,
        environmentId: q.environmentId,
        connectionId: q.connectionId,
        sql: q.sql,
        source: 'saved_question',
        signal: q.signal,
      });
      return { columns: r.columns, rows: r.rows, truncated: r.truncated };
    },
  };
}
