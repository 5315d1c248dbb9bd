// The data plane's TableDocsSource over the knowledge repository: table files read at the
// environment's branch head, with defaults applied, and synced metadata written back through knowledge.
import type { TableDoc, TableDocsSource } from '../data/types.ts';
import { mapList } from '../shared/derived-list.ts';
import { environmentTargets, readGovernance, readTableFiles, writeSyncedTables, type KnowledgeDeps, type TableFile } from '../knowledge/index.ts';

/** A table's documentation with the file's defaults applied (every list present, described, active unless said). */
export type DocumentedTable = TableDoc & Required<Pick<TableDoc, 'description' | 'active' | 'columns' | 'metrics' | 'row_filters'>>;

/** The TableDocsSource the data plane is wired to. */
export function createTableDocsSource(knowledge: KnowledgeDeps): Omit<TableDocsSource, 'listTables'> & { listTables(orgId: string, environmentId: string | undefined): Promise<DocumentedTable[]> } {
  return {
    listTables: async (orgId, environmentId) => tableDocsOf(await readTableFiles(knowledge, orgId, environmentId)),
    targets: (orgId, environmentId) => environmentTargets(knowledge, orgId, environmentId),
    writeSyncedTables: (principal, environmentId, tables) => writeSyncedTables(knowledge, principal, environmentId, tables),
    governance: async (orgId, environmentId, commit) => {
      const read = await readGovernance(knowledge, orgId, environmentId, commit);
      return { ...read, tables: tableDocsOf(read.tables) };
    },
  };
}

/**
 * The documentation of a snapshot's table files, built once per snapshot: knowledge hands out the same
 * array for every read of one commit, and mapping 10,000 tables again on each catalog call or governed
 * query was most of their time once the files were no longer read.
 */
const docsOfSnapshot = new WeakMap<readonly TableFile[], DocumentedTable[]>();
// And once per table file: a snapshot after a commit shares the unchanged files of the one before, and
// its list is the one before with the change applied (mapList), not a pass over every file.
const docOfFile = new WeakMap<TableFile, DocumentedTable>();

function docOf(f: TableFile): DocumentedTable {
  let doc = docOfFile.get(f);
  if (!doc) docOfFile.set(f, (doc = toTableDoc(f)));
  return doc;
}

function tableDocsOf(files: readonly TableFile[]): DocumentedTable[] {
  return mapList(files, docsOfSnapshot, docOf);
}

function toTableDoc(f: TableFile): DocumentedTable {
  return {
    connection: f.connection,
    schema: f.schema,
    name: f.name,
    description: f.description ?? '',
    active: f.active ?? true,
    columns: (f.columns ?? []).map((c) => ({
      name: c.name,
      ...(c.type !== undefined ? { type: c.type } : {}),
      ...(c.description !== undefined ? { description: c.description } : {}),
      synonyms: c.synonyms ?? [],
    })),
    metrics: f.metrics ?? [],
    ...(f.coverage ? { coverage: f.coverage } : {}),
    row_filters: (f.row_filters ?? []).map((r) => ({
      filter: r.filter,
      ...(r.groups ? { groups: r.groups } : {}),
      ...(r.exempt_roles ? { exempt_roles: r.exempt_roles } : {}),
    })),
  };
}
