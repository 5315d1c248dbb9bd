// Adapters that let chats use the lineage library, the knowledge and the accounts, without knowing them.
import { userEmails } from '../auth/index.ts';
import type { ChatSources } from '../chats/index.ts';
import { columnLineage, type LineageDialect } from '../data/lineage/index.ts';
import type { Executor } from '../store/index.ts';
import { effectiveEnvironment, knowledgeAt, type KnowledgeDeps } from '../knowledge/index.ts';

const DIALECTS: LineageDialect[] = ['postgresql', 'mysql', 'mariadb', 'sqlite', 'duckdb'];

/** `schema.table` (as written in the query) -> parts. */
function splitTable(name: string): { schema?: string; table: string } {
  const i = name.lastIndexOf('.');
  return i < 0 ? { table: name } : { schema: name.slice(0, i), table: name.slice(i + 1) };
}

/** Lineage through src/data/lineage; suggestions from the documented tables and reports of the caller's environment; addresses from auth. */
export function chatSourcesFrom(knowledge: KnowledgeDeps, store: Executor): ChatSources {
  const describedItems = async (orgId: string, envId: string | undefined, kind: 'tables' | 'reports') =>
    (await knowledgeAt(knowledge, orgId, envId)).items.filter((item) => item.kind === kind && item.data && item.data['active'] !== false);
  return {
    users: { emails: (ids) => userEmails(store, ids) },
    async lineage(sql, dialect) {
      const d = (DIALECTS as string[]).includes(dialect) ? (dialect as LineageDialect) : 'postgresql';
      const result = await columnLineage(sql, d);
      return {
        tables: result.tables.map(splitTable),
        columns: result.columns.map((c) => ({ column: c.name, sources: c.sources.map((src) => ({ ...splitTable(src.table), column: src.column })) })),
      };
    },
    suggestions: {
      async tables(principal, envId) {
        const items = await describedItems(principal.orgId, effectiveEnvironment(principal, envId), 'tables');
        return items.map((i) => ({ name: String(i.data!['name']), ...(typeof i.data!['description'] === 'string' ? { description: i.data!['description'] } : {}) }));
      },
      async reports(principal, envId) {
        const items = await describedItems(principal.orgId, effectiveEnvironment(principal, envId), 'reports');
        return items.map((i) => ({ title: String(i.data!['title']), ...(typeof i.data!['description'] === 'string' ? { description: i.data!['description'] } : {}) }));
      },
    },
  };
}
