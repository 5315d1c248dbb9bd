// The kinds of knowledge and where their files live. One item per file, so that parallel edits
// rarely conflict. Files outside these folders (or not ending in .yaml) are not managed.
import type { z } from 'zod';
import { EvaluationFile, NoteFile, RelationshipFile, ReportFile, SkillFile, SLUG_RE, SLUG_RULE, TableFile } from './schemas.ts';

export const KINDS = ['tables', 'notes', 'relationships', 'reports', 'skills', 'evaluations'] as const;
export type Kind = (typeof KINDS)[number];

export interface KindDef {
  kind: Kind;
  schema: z.ZodType<Record<string, unknown>>;
  /** The item id named by a file path, or undefined when the path is not one of this kind's files. */
  idOfPath(path: string): string | undefined;
  pathOf(id: string): string;
  /** True when `id` is a well-formed id of this kind. */
  validId(id: string): boolean;
  /** The shape of a well-formed id, in words, for an error message. */
  idRule: string;
  /** The id a file's content implies, when the content names it; `field` is where. */
  idOfData(data: Record<string, unknown>): { id: string; field: string } | undefined;
  /** Top-level fields whose text becomes part of the file name. */
  idFields: string[];
  /** A readable title for listings and search. */
  titleOf(data: Record<string, unknown>): string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function flat(kind: Kind, schema: z.ZodType<Record<string, unknown>>, idField: string | undefined, titleField: string): KindDef {
  const re = new RegExp(`^${kind}/([^/]+)\\.yaml$`);
  return {
    kind,
    schema,
    idOfPath: (path) => {
      const id = re.exec(path)?.[1];
      return id !== undefined && SLUG_RE.test(id) ? id : undefined;
    },
    pathOf: (id) => `${kind}/${id}.yaml`,
    validId: (id) => SLUG_RE.test(id),
    idRule: SLUG_RULE.replace(/^Use/, 'use'),
    idOfData: (data) => (idField && typeof data[idField] === 'string' ? { id: data[idField], field: idField } : undefined),
    idFields: idField ? [idField] : [],
    titleOf: (data) => str(data[titleField]),
  };
}

// Table ids are `<connection>/<schema>.<table>`, the file path without folder and extension.
const TABLE_RE = /^tables\/([^/]+)\/([^/]+)\.yaml$/;
const tables: KindDef = {
  kind: 'tables',
  schema: TableFile,
  idOfPath: (path) => {
    const m = TABLE_RE.exec(path);
    return m && m[2]!.includes('.') ? `${m[1]}/${m[2]}` : undefined;
  },
  pathOf: (id) => `tables/${id}.yaml`,
  validId: (id) => /^[A-Za-z0-9][\w.-]*\/[^/\\\s][^/\\]*\.[^/\\]+$/.test(id),
  idRule: 'write it as <connection>/<schema>.<table>, such as demo_warehouse/main.orders',
  idOfData: (data) =>
    typeof data['connection'] === 'string' && typeof data['schema'] === 'string' && typeof data['name'] === 'string'
      ? { id: tableId(data['connection'], data['schema'], data['name']), field: 'name' }
      : undefined,
  idFields: ['connection', 'schema', 'name'],
  titleOf: (data) => `${str(data['schema'])}.${str(data['name'])}`,
};

/** The id (and file stem) of a table's documentation. */
export function tableId(connection: string, schema: string, name: string): string {
  return `${connection}/${schema}.${name}`;
}

export const KIND_DEFS: Record<Kind, KindDef> = {
  tables,
  notes: flat('notes', NoteFile, undefined, 'title'),
  relationships: flat('relationships', RelationshipFile, 'id', 'description'),
  reports: flat('reports', ReportFile, undefined, 'title'),
  skills: flat('skills', SkillFile, 'name', 'name'),
  evaluations: flat('evaluations', EvaluationFile, 'id', 'name'),
};

/** The kind and id of a managed file, or undefined for files the service does not manage. */
export function classifyPath(path: string): { kind: Kind; id: string } | undefined {
  for (const def of Object.values(KIND_DEFS)) {
    const id = def.idOfPath(path);
    if (id !== undefined) return { kind: def.kind, id };
  }
  return undefined;
}

/** A file-name slug from a title: `Fiscal year rules` -> `fiscal-year-rules`. */
export function slugify(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return s || 'item';
}
