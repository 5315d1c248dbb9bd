// The agent's ports implemented by the real modules: knowledge at the environment's commit, governed
// queries through the data plane, chats, uploads and the user's profile. Every call carries the
// run's own Principal, so the agent never reads what its user may not.
import { existsSync } from 'node:fs';
import type { AgentPorts, KnowledgeHit, KnowledgeKind, KnowledgeSource, RelationshipDocument, TableDocument } from '../agent/ports.ts';
import { listMemories } from '../auth/profile/memories.ts';
import { getUser, type Principal } from '../auth/index.ts';
import { appendMessage, chatTranscript, recordAnswer } from '../chats/index.ts';
import { executeQuery } from '../data/index.ts';
import { queryUploads, uploadSessionDir } from '../data/uploads/index.ts';
import type { CoreServices } from './services.ts';
import { effectiveEnvironment, environmentOf, knowledgeAt, schemas, startQuickFixEnvironment, type Item, type KnowledgeDeps } from '../knowledge/index.ts';
import { SEARCHABLE_KINDS, singularKind, type SearchableFolder } from './knowledge-kinds.ts';
import { pathRelationships } from './relationship-paths.ts';

type Data = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function toTable(d: Data): TableDocument {
  const columns = Array.isArray(d['columns']) ? (d['columns'] as Data[]) : [];
  return {
    connection: String(d['connection']),
    schema: String(d['schema']),
    name: String(d['name']),
    ...(str(d['description']) ? { description: str(d['description']) } : {}),
    columns: columns.map((c) => ({
      name: String(c['name']),
      ...(str(c['type']) ? { type: str(c['type']) } : {}),
      ...(str(c['description']) ? { description: str(c['description']) } : {}),
      synonyms: Array.isArray(c['synonyms']) ? (c['synonyms'] as unknown[]).map(String) : [],
    })),
    ...governed(d),
    ...upstreamOf(d),
  };
}

/** The lineage an import recorded with the table (`dbt.depends_on`), so the model can say what a table is built from. */
function upstreamOf(d: Data): Pick<TableDocument, 'upstream'> {
  const dbt = d['dbt'];
  const nodes = typeof dbt === 'object' && dbt !== null ? (dbt as Data)['depends_on'] : undefined;
  return Array.isArray(nodes) && nodes.length > 0 ? { upstream: nodes.map(String) } : {};
}

/** Metrics and coverage as their schemas accept them: a broken entry (pushed through a git mirror) is left out. */
function governed(d: Data): Pick<TableDocument, 'metrics' | 'coverage'> {
  const metrics = (Array.isArray(d['metrics']) ? d['metrics'] : []).flatMap((m) => {
    const parsed = schemas.Metric.safeParse(m);
    return parsed.success ? [parsed.data] : [];
  });
  const coverage = schemas.DataCoverage.safeParse(d['coverage']);
  return { ...(metrics.length > 0 ? { metrics } : {}), ...(coverage.success ? { coverage: coverage.data } : {}) };
}

const toRelationship = (d: Data) => d as unknown as RelationshipDocument;

/** The text a model reads for a knowledge item. */
function textOf(kind: KnowledgeKind, d: Data): string {
  switch (kind) {
    case 'table': {
      const t = toTable(d);
      return [
        str(d['description']) ?? '',
        ...t.columns.map((c) => `${c.name}: ${c.description ?? ''} ${c.synonyms?.length ? `(also: ${c.synonyms.join(', ')})` : ''}`),
        ...(t.metrics ?? []).map((m) => `metric ${m.name}: ${m.description} ${m.synonyms?.length ? `(also: ${m.synonyms.join(', ')})` : ''}`),
      ].join('\n');
    }
    case 'relationship': {
      const r = toRelationship(d);
      return r.description ?? `${r.from.table}.${r.from.column} -> ${r.to.table}.${r.to.column}`;
    }
    case 'note':
      return str(d['body']) ?? '';
    case 'skill':
      return str(d['instructions']) ?? str(d['description']) ?? '';
    case 'report':
      return [str(d['description']) ?? '', str(d['sql']) ?? ''].join('\n');
  }
}

// A snapshot's relationships, parsed once per item list (the snapshot's, shared by every question at its commit).
const relationshipLists = new WeakMap<readonly Item[], { relationships: RelationshipDocument[]; items: Item[] }>();

function relationshipsOf(all: readonly Item[]): { relationships: RelationshipDocument[]; items: Item[] } {
  let found = relationshipLists.get(all);
  if (!found) {
    const items = all.filter((i) => i.kind === 'relationships' && i.data);
    found = { relationships: items.map((i) => toRelationship(i.data!)), items };
    relationshipLists.set(all, found);
  }
  return found;
}

const touches = (r: RelationshipDocument, keys: Set<string>) => keys.has(`${r.from.connection}/${r.from.table}`) || keys.has(`${r.to.connection}/${r.to.table}`);

/** The commit a search reports when the repository has none yet. */
const EMPTY = 'empty';
/** A run's pinned commit as a git ref: none while the repository was empty. */
const pinned = (at: string | undefined) => (at === EMPTY ? undefined : at);

/** Knowledge read at the environment's commit, or at `commit` when pinned; regular users always read production. */
export function knowledgePort(k: KnowledgeDeps, commit?: string): KnowledgeSource {
  const snapshot = (p: Principal, envId: string | undefined, at?: string) => knowledgeAt(k, p.orgId, effectiveEnvironment(p, envId), commit ?? pinned(at));
  const items = async (p: Principal, envId: string | undefined, kind: 'tables' | 'relationships', at?: string) =>
    (await snapshot(p, envId, at)).items.filter((i) => i.kind === kind && i.data && !(kind === 'tables' && i.data['active'] === false)).map((i) => i.data!);
  return {
    async search(p, envId, query, limit, at) {
      const snap = await snapshot(p, envId, at);
      const hits: KnowledgeHit[] = snap
        // Evaluations are never searched: they would take places of the limit, and hold the answers.
        .search(query, { limit, kinds: Object.keys(SEARCHABLE_KINDS) as SearchableFolder[] })
        .map((h) => {
          const kind: KnowledgeKind = singularKind(h.kind)!;
          return {
            kind,
            path: h.path,
            title: h.title,
            text: textOf(kind, h.data),
            score: h.score,
            ...(kind === 'table' ? { table: toTable(h.data) } : {}),
            ...(kind === 'relationship' ? { relationship: toRelationship(h.data) } : {}),
          };
        });
      // The planner joins only along relationships it sees: add those on the paths between the tables found.
      const keys = new Set(hits.filter((h) => h.table).map((h) => `${h.table!.connection}/${h.table!.name}`));
      const { relationships, items: relationshipItems } = relationshipsOf(snap.items);
      const onPaths = pathRelationships(relationships, keys);
      for (const [i, item] of relationshipItems.entries()) {
        if (!onPaths.has(relationships[i]!) || hits.some((h) => h.path === item.path)) continue;
        hits.push({ kind: 'relationship', path: item.path, title: item.id, text: textOf('relationship', item.data!), score: 0, relationship: relationships[i]! });
      }
      return { commit: snap.commit ?? EMPTY, items: hits };
    },
    async getTable(p, envId, connectionId, table, at) {
      const found = (await items(p, envId, 'tables', at)).find((d) => d['connection'] === connectionId && (d['name'] === table || `${String(d['schema'])}.${String(d['name'])}` === table));
      return found ? toTable(found) : undefined;
    },
    async relationships(p, envId, tables, at) {
      const keys = new Set(tables.map((t) => `${t.connection}/${t.name}`));
      return (await items(p, envId, 'relationships', at)).map(toRelationship).filter((r) => keys.size === 0 || touches(r, keys));
    },
    async environmentName(p, envId) {
      const effective = effectiveEnvironment(p, envId);
      return effective === undefined ? undefined : (await environmentOf(k, p.orgId, effective)).name;
    },
    async startQuickFix(p) {
      const env = await startQuickFixEnvironment(k, p);
      return { id: env.id, name: env.name };
    },
  };
}

/** All ports over the real modules. */
export function agentPortsFrom(s: CoreServices): AgentPorts {
  const chatDeps = s.chats;
  const uploadDir = (p: Principal, chatId: string) => uploadSessionDir(s.config.dataDir, { orgId: p.orgId, userId: p.userId, chatId });
  // Upload queries run on the warehouse queries' processes, under the same timeout and fair share.
  const onProcesses = (p: Principal, signal?: AbortSignal) => ({ processes: s.data.queryProcesses, timeoutMs: s.data.statementTimeoutMs, owner: p.userId, signal });
  return {
    knowledge: knowledgePort(s.knowledge),
    queries: {
      async run({ principal, environmentId, connectionId, sql, rowLimit, signal, knowledgeCommit }) {
        const r = await executeQuery(s.data, { principal, environmentId, connectionId, sql, rowLimit, source: 'agent', signal, knowledgeCommit: pinned(knowledgeCommit) });
        return { columns: r.columns, rows: r.rows, rowCount: r.rowCount, truncated: r.truncated, executionMs: r.executionTimeMs, dialect: r.dialect, tables: r.tables };
      },
    },
    uploads: {
      async list(p, chatId) {
        const dir = uploadDir(p, chatId);
        if (!existsSync(dir)) return [];
        const { tables } = await queryUploads(dir, 'SELECT 1', { maxRows: 1, ...onProcesses(p) });
        return tables.filter((t) => !t.error).map((t) => ({ fileId: t.file, name: t.file, table: t.name }));
      },
      async run(p, chatId, sql, rowLimit, signal) {
        const started = performance.now();
        const r = await queryUploads(uploadDir(p, chatId), sql, { maxRows: rowLimit, ...onProcesses(p, signal) });
        return { columns: r.columns, rows: r.rows, rowCount: r.rowCount, truncated: r.truncated, executionMs: Math.round(performance.now() - started), dialect: 'duckdb' };
      },
    },
    chats: {
      async recordUserMessage(p, { chatId, content, messageUuid, environment, hidden }) {
        const question = await appendMessage(chatDeps, p, { chatId, role: 'user', content, messageUuid, agentic: true, ...(environment ? { environment } : {}), ...(hidden ? { hidden } : {}) });
        return { position: question.position };
      },
      async recordAnswer(p, { chatId, content, messageUuid, answer, credits, knowledgeCommit, knowledgeItems }) {
        await recordAnswer(chatDeps, p, { chatId, content, messageUuid, answer, credits, knowledgeItems, ...(knowledgeCommit ? { knowledgeCommit } : {}) });
      },
      async history(p, chatId, { without } = {}) {
        return (await chatTranscript(chatDeps, p, chatId))
          .filter((m) => m.displayed && (m.role === 'user' || m.role === 'assistant') && m.message_uuid !== without)
          .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
      },
    },
    profiles: {
      async profile(p) {
        const user = await getUser(s.executor, p.userId);
        return { name: user?.name ?? '', background: user?.slack_title ?? '', memories: (await listMemories({ store: s.executor }, p)).map((m) => `${m.title}: ${m.content}`) };
      },
    },
  };
}
