// search_knowledge over the production knowledge of the caller's organization, with the same ranked
// search the agent uses (at the production commit; row-access rules are never matched or shown).
import { knowledgeAt, searchableData, type KnowledgeDeps } from '../knowledge/index.ts';
import type { KnowledgeHit, McpPorts } from '../mcp/ports.ts';
import { SEARCHABLE_KINDS, type SearchableFolder } from './knowledge-kinds.ts';

/** The search_knowledge port over the knowledge repositories. */
export function knowledgeMcpPort(knowledge: KnowledgeDeps): Pick<McpPorts, 'searchKnowledge'> {
  return {
    async searchKnowledge(principal, { query, limit }) {
      const terms = [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length >= 2))];
      const snapshot = await knowledgeAt(knowledge, principal.orgId, undefined);
      return snapshot.search(query, { kinds: Object.keys(SEARCHABLE_KINDS) as SearchableFolder[], limit }).map((hit) => {
        const text = JSON.stringify(searchableData(hit.data));
        return { kind: SEARCHABLE_KINDS[hit.kind as SearchableFolder], id: hit.id, title: hit.title, snippet: snippetOf(text, terms) } satisfies KnowledgeHit;
      });
    },
  };
}

/** About 200 characters around the first matching term. */
function snippetOf(text: string, terms: string[]): string {
  const lower = text.toLowerCase();
  const found = terms.map((term) => lower.indexOf(term)).filter((i) => i >= 0);
  const start = Math.max(0, (found.length ? Math.min(...found) : 0) - 80);
  return (start > 0 ? '…' : '') + text.slice(start, start + 200) + (start + 200 < text.length ? '…' : '');
}
