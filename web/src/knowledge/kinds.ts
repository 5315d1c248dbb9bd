// The kinds of knowledge, their names for people, and the fields a new item of each starts with
// (the server validates; these only spare typing the field names).

export const KINDS = ['tables', 'notes', 'relationships', 'reports', 'skills', 'evaluations'] as const;
export type Kind = (typeof KINDS)[number];

export const KIND_LABELS: Record<Kind, string> = {
  tables: 'Tables',
  notes: 'Notes',
  relationships: 'Relationships',
  reports: 'Reports',
  skills: 'Skills',
  evaluations: 'Evaluations',
};

/** One label per item, in the singular, for buttons and headings. */
export const KIND_SINGULAR: Record<Kind, string> = {
  tables: 'table',
  notes: 'note',
  relationships: 'relationship',
  reports: 'report',
  skills: 'skill',
  evaluations: 'evaluation',
};

const endpoint = { connection: '', schema: '', table: '', column: '' };

/** The fields a new item starts with. */
export const TEMPLATES: Record<Kind, Record<string, unknown>> = {
  tables: { connection: '', schema: '', name: '', description: '', columns: [] },
  notes: { title: '', body: '', tags: [] },
  relationships: { id: '', from: endpoint, to: endpoint, kind: 'many_to_one', description: '' },
  reports: { title: '', description: '', connection: '', sql: '' },
  skills: { name: '', description: '', instructions: '' },
  evaluations: { id: '', name: '', description: '', questions: [{ id: '', question: '', expected_answer: '', answer_type: 'number' }] },
};

/** Kinds whose file name the person may choose (the others take it from the content). */
export const NAMED_BY_QUERY = new Set<string>(['notes', 'reports']);

export function isKind(value: string | undefined): value is Kind {
  return (KINDS as readonly string[]).includes(value ?? '');
}

/** What people call an item: its title or name, else its id. */
export function itemTitle(item: { id: string; data: unknown }): string {
  const data = item.data && typeof item.data === 'object' ? (item.data as Record<string, unknown>) : {};
  for (const key of ['title', 'name']) if (typeof data[key] === 'string' && data[key]) return data[key] as string;
  return item.id;
}
