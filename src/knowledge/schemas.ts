// One schema per knowledge kind (the YAML formats of the brief). Objects are loose: keys people add
// by hand survive a round trip. No defaults here, so a validated value written back adds nothing
// the author did not write; readers apply defaults (see table-docs.ts).
import { z } from 'zod';
import { ROLES } from '../auth/index.ts';
import { EvaluationSuite } from '../shared/evaluation-suite.ts';
import { checkExpression, rowFilterTextProblem } from '../sql-expression.ts';

const text = z.string().min(1);
/** File-name-safe identifier: letters, digits, `_`, `-`, `.` (not first). */
export const SLUG_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
/** SLUG_RE in words, for whoever typed a name it refuses. */
export const SLUG_RULE = 'Use letters, digits, _, - or . (not first), at most 128 characters';
const slug = z.string().regex(SLUG_RE, SLUG_RULE);
/** A connection, schema or table name as it appears in a file name. */
const namePart = z.string().regex(/^[^/\\\s][^/\\]{0,199}$/, 'Must not contain / or \\ or start with a space');

export const ColumnDoc = z.looseObject({
  name: text,
  type: z.string().optional(),
  description: z.string().optional(),
  synonyms: z.array(z.string()).optional(),
});

export const RowFilter = z.looseObject({
  filter: text.superRefine((v, ctx) => {
    const problem = rowFilterTextProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  groups: z.array(z.string()).optional(),
  exempt_roles: z.array(z.enum(ROLES)).optional(),
});

const expression = (aggregate: boolean) =>
  z.string().min(1).max(2000).superRefine((v, ctx) => {
    const problem = checkExpression(v, { aggregate });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
/** `column` of this table, or `table.column` of a table it joins to. */
const columnRef = z.string().regex(/^(?:[A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$/, 'A column name, or table.column for a joined table');
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD');

/** How a metric's values are shown: `integer`, `decimal`, `percent` (0.1 shows as 10%) or a currency code. */
export const METRIC_FORMAT_RE = /^(integer|decimal|percent|[A-Z]{3})$/;

export const Metric = z
  .looseObject({
    name: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'Use lower-case letters, digits and _ (a letter first), at most 64 characters'),
    description: text,
    synonyms: z.array(text).optional(),
    expression: expression(true).describe('Aggregate SQL over the columns, e.g. SUM(total_amount)'),
    filter: expression(false).optional().describe("Rows the metric counts, e.g. status IN ('completed', 'shipped'); table.column reaches a joined table"),
    time_column: columnRef.optional().describe('The date that periods ("in 2025", "last month") apply to'),
    format: z.string().regex(METRIC_FORMAT_RE, 'integer, decimal, percent or a currency code such as USD').optional(),
  })
  .meta({ title: 'Metric', description: 'A governed metric: defined once in the knowledge, used by every answer' });

export const DataCoverage = z
  .looseObject({
    column: columnRef.optional().describe("The date the coverage is of; default the first metric's time column"),
    first: isoDay.describe('First day with data'),
    last: isoDay.describe('Last day with data'),
  })
  .refine((c) => c.first <= c.last, { message: 'first must not be after last', path: ['last'] })
  .meta({ title: 'DataCoverage', description: 'The dates the table holds data for; refreshed by metadata sync' });

export const TableFile = z
  .looseObject({
    connection: slug,
    schema: namePart,
    name: namePart,
    description: z.string().optional(),
    active: z.boolean().optional(),
    columns: z.array(ColumnDoc).optional(),
    metrics: z.array(Metric).optional(),
    coverage: DataCoverage.optional(),
    row_filters: z.array(RowFilter).optional(),
  })
  .superRefine(checkTableReferences)
  .meta({ title: 'TableDocumentation' });

/** Metric names are unique in a table, and the columns a metric or the coverage names are documented. */
function checkTableReferences(t: { columns?: { name: string }[]; metrics?: { name: string; time_column?: string }[]; coverage?: { column?: string } }, ctx: z.RefinementCtx): void {
  const documented = t.columns && t.columns.length > 0 ? new Set(t.columns.map((c) => c.name)) : undefined;
  const unknown = (ref: string | undefined) => ref !== undefined && !ref.includes('.') && documented !== undefined && !documented.has(ref);
  const seen = new Set<string>();
  for (const [i, m] of (t.metrics ?? []).entries()) {
    if (seen.has(m.name)) ctx.addIssue({ code: 'custom', path: ['metrics', i, 'name'], message: `another metric of this table is named ${m.name}` });
    seen.add(m.name);
    if (unknown(m.time_column)) ctx.addIssue({ code: 'custom', path: ['metrics', i, 'time_column'], message: `${m.time_column} is not a documented column of this table` });
  }
  if (unknown(t.coverage?.column)) ctx.addIssue({ code: 'custom', path: ['coverage', 'column'], message: `${t.coverage!.column} is not a documented column of this table` });
}

const Endpoint = z.looseObject({ connection: slug, schema: namePart, table: namePart, column: text });

export const RelationshipFile = z.looseObject({
  id: slug,
  from: Endpoint,
  to: Endpoint,
  kind: z.enum(['many_to_one', 'one_to_one', 'one_to_many']),
  description: z.string(),
});

export const NoteFile = z.looseObject({ title: text, body: z.string(), tags: z.array(z.string()).optional() });

export const ReportFile = z.looseObject({
  title: text,
  description: z.string(),
  sql: text,
  connection: slug,
  chart: z.unknown().optional(),
});

export const SkillFile = z.looseObject({ name: slug, description: z.string(), instructions: text });

/** Evaluation suites are strict (unknown fields refused); see src/shared/evaluation-suite.ts. */
export const EvaluationFile = EvaluationSuite;

export type TableFile = z.infer<typeof TableFile>;
export type Metric = z.infer<typeof Metric>;
export type DataCoverage = z.infer<typeof DataCoverage>;
export type RelationshipFile = z.infer<typeof RelationshipFile>;
export type NoteFile = z.infer<typeof NoteFile>;
export type ReportFile = z.infer<typeof ReportFile>;
export type SkillFile = z.infer<typeof SkillFile>;
export type EvaluationFile = z.infer<typeof EvaluationFile>;
