// A process refuses to run on a database migrated by a newer Sextant: its code would read and write
// tables whose meaning changed under it. Both dialects record applied migrations in schema_migrations.
/** A start-up failure, not a request's: storage knows no HTTP-facing AppError. */
export class SchemaNewerThanCode extends Error {
  readonly code = 'SCHEMA_NEWER_THAN_CODE';
  constructor(readonly unknown: { id: number; name: string }[]) {
    const names = unknown.map((m) => `${String(m.id).padStart(4, '0')}_${m.name}`).join(', ');
    super(
      `The service database was migrated by a newer version of Sextant (migrations this version does not know: ${names}). ` +
        'Run the newer version, or restore a backup taken before it migrated the database.',
    );
    this.name = 'SchemaNewerThanCode';
  }
}

/** Throws SchemaNewerThanCode when `recorded` holds a migration id that `known` lacks. */
export function assertKnownSchema(recorded: { id: number; name: string }[], known: { id: number }[]): void {
  const ids = new Set(known.map((m) => m.id));
  const unknown = recorded.filter((m) => !ids.has(Number(m.id))).sort((a, b) => Number(a.id) - Number(b.id));
  if (unknown.length > 0) throw new SchemaNewerThanCode(unknown);
}
