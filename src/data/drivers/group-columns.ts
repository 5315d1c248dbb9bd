// Introspection rows to tables, shared by the drivers that read information_schema.
import type { IntrospectedTable } from './driver.ts';

/** Groups `(schema, table, column, type, nullable)` rows into tables. */
export function groupColumns(rows: (string | number | null)[][], schemas?: string[]): IntrospectedTable[] {
  const out = new Map<string, IntrospectedTable>();
  for (const [schema, table, column, type, nullable] of rows) {
    const s = String(schema);
    if (schemas && !schemas.includes(s)) continue;
    const key = `${s}.${String(table)}`;
    let t = out.get(key);
    if (!t) out.set(key, (t = { schema: s, name: String(table), columns: [] }));
    t.columns.push({ name: String(column), type: String(type), nullable: String(nullable).toUpperCase() === 'YES' });
  }
  return [...out.values()];
}
