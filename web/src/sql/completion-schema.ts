// What the SQL editor completes as one types: the tables and columns of the catalog the person may
// read (GET /api/cli/catalog: governed tables for everyone, admins also what they queried), for the
// connection being edited. Pure functions over the catalog's shape, so they are tested without a browser.

export interface CatalogTable {
  connection_id: string;
  /** `schema.table`. */
  table: string;
  description?: string | undefined;
  columns: { name: string; type?: string | undefined; description?: string | undefined }[];
}

export interface CompletionColumn {
  label: string;
  type: 'property';
  detail: string;
  info?: string;
}

/** lang-sql's schema: schema -> table -> columns. */
export type SqlNamespace = Record<string, Record<string, CompletionColumn[]>>;

const columnOf = (table: string, c: CatalogTable['columns'][number]): CompletionColumn => ({
  label: c.name,
  type: 'property',
  detail: [table, c.type].filter(Boolean).join(' · '),
  ...(c.description ? { info: c.description } : {}),
});

const split = (qualified: string) => {
  const dot = qualified.indexOf('.');
  return dot < 0 ? { schema: '', name: qualified } : { schema: qualified.slice(0, dot), name: qualified.slice(dot + 1) };
};

/** The connection's tables as lang-sql's namespace, and the schema most of them live in (completed without a prefix). */
export function completionSchema(tables: CatalogTable[], connectionId: string): { namespace: SqlNamespace; defaultSchema: string | undefined } {
  const namespace: SqlNamespace = {};
  const counts = new Map<string, number>();
  for (const t of tables.filter((x) => x.connection_id === connectionId)) {
    const { schema, name } = split(t.table);
    (namespace[schema] ??= {})[name] = t.columns.map((c) => columnOf(t.table, c));
    counts.set(schema, (counts.get(schema) ?? 0) + 1);
  }
  const defaultSchema = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { namespace, defaultSchema };
}

const unquote = (id: string) => id.replace(/"/g, '').toLowerCase();

/**
 * The columns of the tables a query reads (named after FROM or JOIN), to complete without the
 * table's name in front: `SELECT sta` completes `status` once `FROM orders` is written.
 */
export function columnsInScope(sql: string, namespace: SqlNamespace, defaultSchema: string | undefined): CompletionColumn[] {
  const seen = new Set<string>();
  const out: CompletionColumn[] = [];
  for (const m of sql.matchAll(/\b(?:from|join)\s+((?:"[^"]+"|[\w$]+)(?:\.(?:"[^"]+"|[\w$]+))?)/gi)) {
    const parts = m[1]!.split('.').map(unquote);
    const [schema, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : [(defaultSchema ?? '').toLowerCase(), parts[0]!];
    const found = Object.entries(namespace).find(([s]) => s.toLowerCase() === schema)?.[1];
    const columns = found && Object.entries(found).find(([t]) => t.toLowerCase() === name)?.[1];
    for (const c of columns ?? []) {
      if (seen.has(c.label)) continue;
      seen.add(c.label);
      out.push(c);
    }
  }
  return out;
}
