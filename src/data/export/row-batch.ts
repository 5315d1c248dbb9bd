// The shape in which query results travel from drivers to writers: batches from an async iterable,
// so a result of any size passes through with memory bounded by one batch.

/** One result column: its name and the warehouse's type name (`VARCHAR`, `DATE`, `DECIMAL(12,2)`...). */
export interface ColumnInfo {
  name: string;
  type: string;
}

/** A slice of a result; every row has one value per column, in column order. */
export interface RowBatch {
  columns: ColumnInfo[];
  rows: unknown[][];
}
