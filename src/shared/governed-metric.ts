// A governed metric as the knowledge YAML's `metrics:` entry holds it: the one shape the agent's,
// the data plane's and the MCP tools' ports read it in (knowledge validates it with its own schema,
// knowledge/schemas.ts), and the one the CLI's catalog lists. Imports nothing.

/** A governed metric of a table: defined once in the knowledge, used by every answer. */
export interface GovernedMetric {
  name: string;
  description: string;
  synonyms?: string[];
  /** Aggregate SQL over the table's columns, e.g. `SUM(total_amount)`. */
  expression: string;
  /** Rows the metric counts; `table.column` names a column of a joined table. */
  filter?: string;
  /** The date periods apply to: `column`, or `table.column` of a joined table. */
  time_column?: string;
  /** `integer`, `decimal`, `percent` or a currency code. */
  format?: string;
}
