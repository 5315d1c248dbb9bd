// The knowledge folders (`tables/`, `notes/`, ...) an agent or MCP client may search, and the singular
// kind each of them reports: one map for both.
export const SEARCHABLE_KINDS = { tables: 'table', notes: 'note', relationships: 'relationship', reports: 'report', skills: 'skill' } as const;

export type SearchableFolder = keyof typeof SEARCHABLE_KINDS;

/** The singular kind of a folder, or undefined for folders no one searches (evaluations). */
export const singularKind = (folder: string) => (Object.hasOwn(SEARCHABLE_KINDS, folder) ? SEARCHABLE_KINDS[folder as SearchableFolder] : undefined);
