// One schema per knowledge kind (the YAML formats of the brief). Objects are loose: keys people add
// by hand survive a round trip. No defaults here, so a validated value written back adds nothing
// the author did not write; readers apply defaults (see table-docs.ts).
import { z } from 'zod';
import { ROLES } from '../auth/index.ts';
import { EvaluationSuite } from '../shared/evaluation-suite.ts';

const text = z.string().min(1);
/** File-name-safe identifier: letters, digits, `_`, `-`, `.` (not first). */
export const SLUG_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const slug = z.string().regex(SLUG_RE, 'Use letters, digits, _, - or . (not first), at most 128 characters');
/** A connection, schema or table name as it appears in a file name. */
const namePart = z.string().regex(/^[^/\\\s][^/\\]{0,199}$/, 'Must not contain / or \\ or start with a space');

export const ColumnDoc = z.looseObject({
  name: text,
  type: z.string().optional(),
  description: z.string().optional(),
  synonyms: z.array(z.string()).optional(),
});

export const RowFilter = z.looseObject({
  filter: text,
  groups: z.array(z.string()).optional(),
  exempt_roles: z.array(z.enum(ROLES)).optional(),
});

export const TableFile = z.looseObject({
  connection: slug,
  schema: namePart,
  name: namePart,
  description: z.string().optional(),
  active: z.boolean().optional(),
  columns: z.array(ColumnDoc).optional(),
  row_filters: z.array(RowFilter).optional(),
});

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
export type RelationshipFile = z.infer<typeof RelationshipFile>;
export type NoteFile = z.infer<typeof NoteFile>;
export type ReportFile = z.infer<typeof ReportFile>;
export type SkillFile = z.infer<typeof SkillFile>;
export type EvaluationFile = z.infer<typeof EvaluationFile>;
