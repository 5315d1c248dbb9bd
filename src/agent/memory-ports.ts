// In-memory twins of the agent's ports, for tests; the service wires the real modules
// (src/compose/agent-ports.ts).
import type { Principal } from '../auth/index.ts';
import { NotFound } from '../errors.ts';
import type { AnswerRecord, ChatRecorder, KnowledgeHit, KnowledgeSource, RelationshipDocument, TableDocument, UploadsQuery } from './ports.ts';
import { tableKey } from './offline/vocabulary.ts';

const terms = (s: string) => new Set(s.toLowerCase().replace(/_/g, ' ').split(/[^a-z0-9]+/).filter((w) => w.length > 2).map((w) => w.replace(/(ies|s)$/, '')));

/** Knowledge held in memory: every table and relationship, ranked by shared words with the query. */
export function memoryKnowledge({
  tables,
  relationships = [],
  notes = [],
  commit = 'memory',
  environments = {},
}: {
  tables: TableDocument[];
  relationships?: RelationshipDocument[];
  notes?: { slug: string; title: string; body: string }[];
  commit?: string;
  /** Environment names by id; any other environment id is NotFound. */
  environments?: Record<string, string>;
}): KnowledgeSource {
  const items: KnowledgeHit[] = [
    ...tables.map((t) => ({
      kind: 'table' as const,
      path: `tables/${t.connection}/${t.schema}.${t.name}.yaml`,
      title: `${t.schema}.${t.name}`,
      text: [t.description ?? '', ...t.columns.map((c) => `${c.name} ${c.description ?? ''} ${(c.synonyms ?? []).join(' ')}`)].join('\n'),
      score: 0,
      table: t,
    })),
    ...relationships.map((r) => ({ kind: 'relationship' as const, path: `relationships/${r.id}.yaml`, title: r.id, text: r.description ?? `${r.from.table}.${r.from.column} -> ${r.to.table}.${r.to.column}`, score: 0, relationship: r })),
    ...notes.map((n) => ({ kind: 'note' as const, path: `notes/${n.slug}.yaml`, title: n.title, text: n.body, score: 0 })),
  ];
  const find = (connectionId: string, table: string) => tables.find((t) => t.connection === connectionId && (t.name === table || `${t.schema}.${t.name}` === table));
  return {
    async search(_p, _env, query, limit) {
      const q = terms(query);
      const scored = items.map((i) => ({ ...i, score: [...terms(`${i.title} ${i.text}`)].filter((w) => q.has(w)).length }));
      const hits = scored.filter((i) => i.score > 0 || i.kind !== 'note').sort((a, b) => b.score - a.score).slice(0, limit);
      return { commit, items: hits };
    },
    async getTable(_p, _env, connectionId, table) {
      return find(connectionId, table);
    },
    async relationships(_p, _env, wanted) {
      const keys = new Set(wanted.map(tableKey));
      return relationships.filter((r) => keys.size === 0 || keys.has(tableKey({ schema: r.from.schema, name: r.from.table })) || keys.has(tableKey({ schema: r.to.schema, name: r.to.table })));
    },
    async environmentName(_p, environmentId) {
      if (environmentId === undefined) return undefined;
      const name = environments[environmentId];
      if (name !== undefined) return name;
      throw new NotFound('Environment not found', 'ENVIRONMENT_NOT_FOUND');
    },
    async startQuickFix() {
      const id = `quick-fix-${Object.keys(environments).length + 1}`;
      environments[id] = `Quick fix ${Object.keys(environments).length + 1}`;
      return { id, name: environments[id] };
    },
  };
}


export const noUploads: UploadsQuery = {
  async list() {
    return [];
  },
  async run() {
    throw new NotFound('No uploaded files in this chat', 'NO_UPLOADS');
  },
};

export interface MemoryChat {
  orgId: string;
  userId: string;
  chatId: string;
  environment?: string;
  messages: { role: 'user' | 'assistant'; content: string; messageUuid: string; answer?: AnswerRecord; credits?: number; knowledgeCommit?: string; knowledgeItems?: { kind: string; path: string }[] }[];
}

/** Chats kept in memory, with the owner check of src/chats (another user's chat is NotFound). */
export function memoryChats(): ChatRecorder & { chats: Map<string, MemoryChat> } {
  const chats = new Map<string, MemoryChat>();
  const owned = (p: Principal, chatId: string): MemoryChat => {
    const chat = chats.get(`${p.orgId}/${chatId}`);
    if (!chat || chat.userId !== p.userId) throw new NotFound('Chat not found', 'CHAT_NOT_FOUND');
    return chat;
  };
  return {
    chats,
    async recordUserMessage(p, { chatId, content, messageUuid, environment }) {
      const key = `${p.orgId}/${chatId}`;
      if (!chats.has(key)) chats.set(key, { orgId: p.orgId, userId: p.userId, chatId, environment: environment?.name, messages: [] });
      const messages = owned(p, chatId).messages;
      messages.push({ role: 'user', content, messageUuid });
      return { position: messages.length - 1 };
    },
    async recordAnswer(p, input) {
      owned(p, input.chatId).messages.push({ role: 'assistant', ...input });
    },
    async history(p, chatId, { without } = {}) {
      const chat = chats.get(`${p.orgId}/${chatId}`);
      if (!chat || chat.userId !== p.userId) return [];
      return chat.messages.filter((m) => m.messageUuid !== without).map((m) => ({ role: m.role, content: m.content }));
    },
  };
}


