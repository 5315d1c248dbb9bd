// Models, seeds, snapshots and sources become table documentation: description, columns (types from
// the catalog, facts from unique / not_null / accepted_values tests), tags, meta and upstream lineage.
import { createHash } from 'node:crypto';
import type { DbtCatalog, DbtCatalogNode, DbtColumn, DbtManifest, DbtNode } from './artifacts.ts';
import { nodeRelation, relationLookup } from './relation-names.ts';
import type { WarehouseRelation } from './ports.ts';
import type { Skipped } from './summary.ts';

export const TABLE_TYPES = new Set(['model', 'seed', 'snapshot', 'source']);

/** A node that has a relation on the connection, and the documentation it becomes. */
export interface MappedTable {
  node: DbtNode;
  relation: WarehouseRelation;
  connection: string;
  /** The governed metrics placed on it (map-metrics.ts), last in its documentation. */
  metrics: Record<string, unknown>[];
  /**
   * Its documentation, built each time it is read (the import reads it once, to plan its file): the
   * documents of every table held at once were what the mapping added to the kept manifest.
   */
  readonly doc: Record<string, unknown>;
  /**
   * A hash of all its documentation is made of: node, catalog entry, relation, test facts, connection
   * and metrics (read once the metrics are placed). Cheaper than the documentation, so that a re-import
   * can tell an unchanged table without building it (render-memo.ts).
   */
  readonly source: string;
}

type Facts = Map<string, Map<string, { unique?: boolean; not_null?: boolean; accepted_values?: unknown[] }>>;

/** Column facts of the generic tests, per node and column. */
function testFacts(manifest: DbtManifest): Facts {
  const facts: Facts = new Map();
  for (const t of Object.values(manifest.nodes)) {
    if (t.resource_type !== 'test' || !t.test_metadata || !t.attached_node) continue;
    const column = t.column_name ?? (typeof t.test_metadata.kwargs?.['column_name'] === 'string' ? t.test_metadata.kwargs['column_name'] : undefined);
    if (!column) continue;
    const byColumn = facts.get(t.attached_node) ?? new Map();
    facts.set(t.attached_node, byColumn);
    const f = byColumn.get(column) ?? {};
    byColumn.set(column, f);
    const name = t.test_metadata.name;
    if (name === 'unique') f.unique = true;
    else if (name === 'not_null') f.not_null = true;
    else if (name === 'accepted_values' && Array.isArray(t.test_metadata.kwargs?.['values'])) f.accepted_values = t.test_metadata.kwargs['values'] as unknown[];
  }
  return facts;
}

const quoted = (v: unknown) => `'${String(v).replace(/'/g, "''")}'`;

/** The columns dbt documents on a node: from their JSON text in a kept manifest (slim-manifest.ts). */
function documentedColumns(node: DbtNode): DbtColumn[] {
  return Object.values(node.columns_json === undefined ? (node.columns ?? {}) : (JSON.parse(node.columns_json) as Record<string, DbtColumn>));
}

function columnsOf(node: DbtNode, cat: DbtCatalogNode | undefined, relation: WarehouseRelation, facts: Facts): Record<string, unknown>[] {
  const documented = documentedColumns(node);
  const typed = cat ? Object.values(cat.columns).sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : relation.columns;
  const names = [...typed.map((c) => c.name), ...documented.map((c) => c.name)];
  const seen = new Set<string>();
  const byName = new Map(documented.map((c) => [c.name.toLowerCase(), c]));
  const typeOf = new Map([...relation.columns, ...typed].map((c) => [c.name.toLowerCase(), c.type]));
  const nodeFacts = facts.get(node.unique_id);
  return names.flatMap((name) => {
    if (seen.has(name.toLowerCase())) return [];
    seen.add(name.toLowerCase());
    const doc = byName.get(name.toLowerCase());
    const f = nodeFacts?.get(name) ?? nodeFacts?.get(name.toLowerCase());
    const type = typeOf.get(name.toLowerCase()) ?? doc?.data_type ?? undefined;
    let description = doc?.description ?? '';
    // Allowed values in quotes are what the agent and the offline model read values from.
    if (f?.accepted_values) description = `${description}${description ? ' ' : ''}Allowed values: ${f.accepted_values.map(quoted).join(', ')}.`;
    const out: Record<string, unknown> = { name };
    if (type) out['type'] = type;
    if (description) out['description'] = description;
    if (doc?.tags?.length) out['tags'] = doc.tags;
    if (doc?.meta && Object.keys(doc.meta).length > 0) out['meta'] = doc.meta;
    if (f?.unique && f.not_null) out['key'] = true;
    else if (f?.unique) out['unique'] = true;
    if (f?.not_null) out['not_null'] = true;
    if (f?.accepted_values) out['accepted_values'] = f.accepted_values;
    return [out];
  });
}

/** Table documentation of every node whose relation the connection has; the rest are skipped with the reason. */
export function mapTables(a: {
  manifest: DbtManifest;
  catalog: DbtCatalog | undefined;
  connectionId: string;
  relations: WarehouseRelation[];
  skipped: Skipped[];
}): MappedTable[] {
  const find = relationLookup(a.relations);
  const facts = testFacts(a.manifest);
  const nodes = [...Object.values(a.manifest.nodes), ...Object.values(a.manifest.sources ?? {})].filter((n) => TABLE_TYPES.has(n.resource_type) && n.config?.enabled !== false);
  const out: MappedTable[] = [];
  const taken = new Set<string>();
  for (const node of nodes) {
    if (node.resource_type === 'model' && (node.config as { materialized?: string } | undefined)?.materialized === 'ephemeral') {
      a.skipped.push({ unique_id: node.unique_id, reason: 'ephemeral model: no relation in the warehouse' });
      continue;
    }
    const wanted = nodeRelation(node);
    const relation = wanted ? find(wanted) : undefined;
    if (!relation) {
      a.skipped.push({ unique_id: node.unique_id, reason: `no relation ${wanted ? `${wanted.schema}.${wanted.name}` : '(unnamed)'} on connection ${a.connectionId}` });
      continue;
    }
    const key = `${relation.schema}.${relation.name}`;
    if (taken.has(key)) {
      a.skipped.push({ unique_id: node.unique_id, reason: `another node is documented as ${key}` });
      continue;
    }
    taken.add(key);
    const cat = a.catalog ? (a.catalog.nodes[node.unique_id] ?? a.catalog.sources?.[node.unique_id]) : undefined;
    const connection = a.connectionId;
    out.push({
      node,
      relation,
      connection,
      metrics: [],
      get doc() {
        return tableDoc(node, relation, columnsOf(node, cat, relation, facts), connection, this.metrics);
      },
      get source() {
        // Every value here is JSON (parsed artifacts, the relations as the port gives them), so its text
        // names it. The columns' JSON text is hashed as it is: quoted inside the rest, it cost a third more.
        const { columns_json: columns, ...rest } = node;
        const hash = createHash('sha1').update(JSON.stringify([rest, cat ?? null, relation, [...(facts.get(node.unique_id) ?? [])], connection, this.metrics]));
        // JSON text holds no NUL: the two parts cannot run into each other.
        if (columns !== undefined) hash.update('\0').update(columns);
        return hash.digest('base64');
      },
    });
  }
  return out;
}

function tableDoc(node: DbtNode, relation: WarehouseRelation, columns: Record<string, unknown>[], connection: string, metrics: Record<string, unknown>[]): Record<string, unknown> {
  const tags = [...new Set([...(node.tags ?? [])])];
  const meta = { ...(node.config?.meta ?? {}), ...(node.meta ?? {}) };
  const doc: Record<string, unknown> = { connection, schema: relation.schema, name: relation.name, description: node.description ?? '', active: true, columns };
  if (tags.length > 0) doc['tags'] = tags;
  if (Object.keys(meta).length > 0) doc['meta'] = meta;
  if (metrics.length > 0) doc['metrics'] = metrics;
  return doc;
}
