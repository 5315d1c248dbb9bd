// search_knowledge until the knowledge search service lands: keyword matching over the production
// knowledge the caller can read (their organization's repository), best matches first. Row-access
// rules are never searched or shown.
import type { KnowledgeDeps } from '../knowledge/index.ts';
import { listItems } from '../knowledge/index.ts';
import type { KnowledgeHit, McpPorts } from './ports.ts';

const KINDS = { tables: 'table', notes: 'note', relationships: 'relationship', reports: 'report', skills: 'skill' } as const;

/** The search_knowledge port over the knowledge repositories. */
export function knowledgeMcpPort(knowledge: KnowledgeDeps): Pick<McpPorts, 'searchKnowledge'> {
  return {
    async searchKnowledge(principal, { query, limit }) {
      const terms = [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length >= 2))];
      if (terms.length === 0) return [];
      const scored: (KnowledgeHit & { score: number })[] = [];
      for (const [kind, hitKind] of Object.entries(KINDS) as [keyof typeof KINDS, KnowledgeHit['kind']][]) {
        const { items } = await listItems(knowledge, principal, undefined, kind);
        for (const item of items) {
          if (!item.data || (kind === 'tables' && item.data['active'] === false)) continue;
          const { row_filters: _hidden, ...visible } = item.data;
          const text = JSON.stringify(visible);
          const lower = text.toLowerCase();
          const score = terms.reduce((n, term) => n + (lower.includes(term) ? 1 : 0), 0);
          if (score === 0) continue;
          const title = String(visible['title'] ?? visible['name'] ?? item.id);
          scored.push({ kind: hitKind, id: item.id, title, snippet: snippetOf(text, lower, terms), score });
        }
      }
      return scored
        .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
        .slice(0, limit)
        .map(({ score: _score, ...hit }) => hit);
    },
  };
}

/** About 200 characters around the first matching term. */
function snippetOf(text: string, lower: string, terms: string[]): string {
  const at = Math.min(...terms.map((term) => lower.indexOf(term)).filter((i) => i >= 0));
  const start = Math.max(0, at - 80);
  return (start > 0 ? '…' : '') + text.slice(start, start + 200) + (start + 200 < text.length ? '…' : '');
}
