// What an import changes on the environment, decided against the files there now. Each imported file
// carries a fingerprint of what the import wrote: a file whose content no longer matches its
// fingerprint was edited by a person and is reported as a conflict, never overwritten. Files of the
// same project and connection whose node is gone are deleted (on the environment only).
import { createHash } from 'node:crypto';
import { Document, parse } from 'yaml';
import type { ImportChange, KnowledgeText } from './ports.ts';
import type { CountedKind, ImportConflict, KindCounts } from './summary.ts';

/** A file the import wants, before provenance time and fingerprint are added. */
export interface PlannedFile {
  path: string;
  kind: CountedKind;
  unique_id: string;
  doc: Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fingerprint of a document: its content without the provenance time and the fingerprint itself. */
export function fingerprintOf(doc: Record<string, unknown>): string {
  const { generated_at: _g, fingerprint: _f, ...dbt } = isRecord(doc['dbt']) ? doc['dbt'] : {};
  return createHash('sha256').update(JSON.stringify({ ...doc, dbt })).digest('hex').slice(0, 32);
}

export function renderFile(doc: Record<string, unknown>): string {
  return new Document(doc).toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** The document with its provenance time and fingerprint. */
function stamped(doc: Record<string, unknown>, generatedAt: string, fingerprint: string): Record<string, unknown> {
  return { ...doc, dbt: { ...(doc['dbt'] as Record<string, unknown>), generated_at: generatedAt, fingerprint } };
}

const GENERATED = /^ {2}generated_at: "?([^"\n]+)"?$/m;

export interface PlanResult {
  changes: ImportChange[];
  counts: Record<CountedKind, KindCounts>;
  conflicts: ImportConflict[];
}

/** Decides every file's change. `owned` says whether an existing file belongs to this project and connection. */
export function planChanges(a: {
  planned: PlannedFile[];
  current: KnowledgeText[];
  generatedAt: string;
  owned: (doc: Record<string, unknown>, path: string) => boolean;
  kindOf: (path: string) => CountedKind | undefined;
  counts: Record<CountedKind, KindCounts>;
}): PlanResult {
  const byPath = new Map(a.current.map((f) => [f.path, f.text]));
  const changes: ImportChange[] = [];
  const conflicts: ImportConflict[] = [];
  const wanted = new Set<string>();
  for (const f of a.planned) {
    wanted.add(f.path);
    const fp = fingerprintOf(f.doc);
    const text = byPath.get(f.path);
    if (text === undefined) {
      changes.push({ path: f.path, content: renderFile(stamped(f.doc, a.generatedAt, fp)) });
      a.counts[f.kind].created++;
      continue;
    }
    // Fast path: the file is exactly what this import would write with the time it already has.
    const had = GENERATED.exec(text)?.[1];
    if (had !== undefined && text.includes(fp) && text === renderFile(stamped(f.doc, had, fp))) {
      a.counts[f.kind].unchanged++;
      continue;
    }
    const decided = decide(text, f, fp);
    if (decided === 'unchanged') a.counts[f.kind].unchanged++;
    else if (decided === 'update') {
      changes.push({ path: f.path, content: renderFile(stamped(f.doc, a.generatedAt, fp)) });
      a.counts[f.kind].updated++;
    } else conflicts.push({ path: f.path, unique_id: f.unique_id, reason: decided.conflict });
  }
  for (const [path, text] of byPath) {
    if (wanted.has(path)) continue;
    const kind = a.kindOf(path);
    const doc = kind ? parsed(text) : undefined;
    if (!kind || !doc || doc['source'] !== 'dbt' || !a.owned(doc, path)) continue;
    const dbt = isRecord(doc['dbt']) ? doc['dbt'] : {};
    if (dbt['fingerprint'] !== fingerprintOf(doc)) {
      conflicts.push({ path, unique_id: String(dbt['unique_id'] ?? ''), reason: 'its dbt node is gone, and a person edited it after the import: not deleted' });
      continue;
    }
    changes.push({ path, content: null });
    a.counts[kind].deleted++;
  }
  return { changes, counts: a.counts, conflicts };
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = parse(text);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** An existing file at a planned path: unchanged, to update, or a conflict and why. */
function decide(text: string, f: PlannedFile, fp: string): 'unchanged' | 'update' | { conflict: string } {
  const doc = parsed(text);
  if (!doc) return { conflict: 'the file there is not valid YAML' };
  if (doc['source'] !== 'dbt') return { conflict: 'a file not imported from dbt is there' };
  const dbt = isRecord(doc['dbt']) ? doc['dbt'] : {};
  const current = fingerprintOf(doc);
  // Same content as planned (whatever time it was stamped with): nothing to write.
  if (current === fp) return 'unchanged';
  if (dbt['fingerprint'] !== current) return { conflict: 'edited by a person after the import' };
  return 'update';
}
