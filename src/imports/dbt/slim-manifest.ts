// What the import keeps of a manifest: per node only the fields it reads (artifacts.ts), and of the
// whole only the sections it maps. A real manifest is mostly what the import never reads (macros,
// parent and child maps, each node's raw and compiled SQL, its full config). The same rules cut down a
// file as it is streamed and a value already parsed (a JSON body): read-json-sections.ts.
import type { SectionRule } from './read-json-sections.ts';

const NODE_FIELDS = [
  'unique_id', 'resource_type', 'name', 'package_name', 'database', 'schema', 'alias', 'identifier', 'relation_name',
  'description', 'tags', 'meta', 'depends_on', 'test_metadata', 'attached_node', 'column_name', 'source_name',
] as const;
const CONFIG_FIELDS = ['enabled', 'meta', 'tags', 'materialized'] as const;
const COLUMN_FIELDS = ['name', 'description', 'data_type', 'tags', 'meta'] as const;
/** Sections mapped as they are: small next to the nodes, and read whole. */
const WHOLE_SECTIONS = ['metrics', 'semantic_models', 'saved_queries', 'exposures'] as const;

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function pick(from: Json, fields: readonly string[]): Json {
  const out: Json = {};
  for (const f of fields) if (from[f] !== undefined) out[f] = from[f];
  return out;
}

const isEmpty = (v: unknown) => v === null || (Array.isArray(v) ? v.length === 0 : isRecord(v) && Object.keys(v).length === 0);

/**
 * A column's fields, its empty ones left out (the mapping reads an empty one as a missing one): a
 * manifest writes `meta: {}`, `tags: []` and `data_type: null` on every column.
 */
function slimColumn(column: Json): Json {
  const out: Json = {};
  for (const f of COLUMN_FIELDS) if (column[f] !== undefined && !isEmpty(column[f])) out[f] = column[f];
  return out;
}

function slimNode(node: unknown): Json {
  if (!isRecord(node)) return {};
  const out = pick(node, NODE_FIELDS);
  if (isRecord(node['config'])) out['config'] = pick(node['config'], CONFIG_FIELDS);
  // The columns are kept as their JSON text, parsed again one node at a time while mapping: as objects
  // (200,000 of them in the bench's 5,000 tables of 20 columns) they held 7 MB more, all of it living
  // through the mapping into V8's old generation, where only a full collection frees it.
  if (isRecord(node['columns'])) {
    const columns: Json = {};
    for (const [name, c] of Object.entries(node['columns'])) if (isRecord(c)) columns[name] = slimColumn(c);
    out['columns_json'] = JSON.stringify(columns);
  } else if (node['columns'] !== undefined) out['columns'] = node['columns'];
  if (isRecord(node['depends_on'])) out['depends_on'] = pick(node['depends_on'], ['nodes']);
  return out;
}

/** The manifest's sections the import reads, and how each is kept. */
export const MANIFEST_SECTIONS: Record<string, SectionRule> = {
  metadata: 'whole',
  nodes: slimNode,
  sources: slimNode,
  ...Object.fromEntries(WHOLE_SECTIONS.map((s) => [s, 'whole'])),
};
