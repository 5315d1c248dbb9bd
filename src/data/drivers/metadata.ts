// Column and table shapes a driver reports, on their own so the query-process protocol can name
// them without importing the driver interface (which names the process pool).
export interface ColumnMeta {
  name: string;
  /** The warehouse's own type name (e.g. `VARCHAR`, `int4`, `DECIMAL(10,2)`). */
  type: string;
}

export interface IntrospectedTable {
  schema: string;
  name: string;
  columns: { name: string; type: string; nullable: boolean }[];
}
