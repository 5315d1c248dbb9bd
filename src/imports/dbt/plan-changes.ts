// What an import changes on the environment, decided against the files there now. Each imported file
// carries a fingerprint of what the import wrote: a file whose content no longer matches its
// fingerprint was edited by a person and is reported as a conflict, never overwritten. Files of the
// same project and connection whose node is gone are deleted (on the environment only).
import { createHash } from 'node:crypto';
import { parse } from 'yaml';
import type { ImportChange, KnowledgeFile, KnowledgeText } from './ports.ts';
import type { CountedKind, ImportConflict, KindCounts, Skipped } from './summary.ts';
import { yamlText } from './yaml-text.ts';

/**
 * A file the import wants. Its document is kept as JSON text, far smaller than its object tree, and
 * parsed again while deciding, one file at a time. Its YAML text is rendered only then too: rendered
 * while planning, when the manifest is still held, the texts lifted the bench's peak RSS from ~460 to ~510 MB.
 */
export interface PlannedFile {
  path: string;
  kind: CountedKind;
  unique_id: string;
  /** The document without provenance time and fingerprint, as JSON. */
  json: string;
  fingerprint: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const hashOf = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 32);

/** The fingerprint of a document: its content without the provenance time and the fingerprint itself. */
export function fingerprintOf(doc: Record<string, unknown>): string {
  const { generated_at: _g, fingerprint: _f, ...dbt } = isRecord(doc['dbt']) ? doc['dbt'] : {};
  return hashOf(JSON.stringify({ ...doc, dbt }));
}


export function renderFile(doc: Record<string, unknown>): string {
  return yamlText(doc);
}

/** The planned file of a document: what deciding needs, without the document's object tree. */
export function plannedFile(at: { path: string; kind: CountedKind; unique_id: string }, doc: Record<string, unknown>): PlannedFile {
  const json = JSON.stringify(doc);
  const dbt = isRecord(doc['dbt']) ? doc['dbt'] : undefined;
  // Not stamped yet, a document's JSON is the fingerprint's text: hashed as it is, not written out twice.
  const unstamped = dbt !== undefined && !('generated_at' in dbt) && !('fingerprint' in dbt);
  return { ...at, json, fingerprint: unstamped ? hashOf(json) : fingerprintOf(doc) };
}

/** The text a planned file is written as, stamped with the manifest's generation time. */
function textOf(f: PlannedFile, doc: Record<string, unknown>, generatedAt: string): string {
  return renderFile(stamped(doc, generatedAt, f.fingerprint));
}

/** The document with its provenance time and fingerprint. */
function stamped(doc: Record<string, unknown>, generatedAt: string, fingerprint: string): Record<string, unknown> {
  return { ...doc, dbt: { ...(doc['dbt'] as Record<string, unknown>), generated_at: generatedAt, fingerprint } };
}

export interface PlanResult {
  changes: ImportChange[];
  counts: Record<CountedKind, KindCounts>;
  conflicts: ImportConflict[];
}

export interface PlanInput {
  planned: PlannedFile[];
  /** The files under the import's folders now, by blob id, and a reader of their texts. */
  current: KnowledgeFile[];
  read: (files: KnowledgeFile[]) => Promise<KnowledgeText[]>;
  generatedAt: string;
  /** Whether an existing file belongs to this project and connection. */
  owned: (doc: Record<string, unknown>, path: string) => boolean;
  kindOf: (path: string) => CountedKind | undefined;
  counts: Record<CountedKind, KindCounts>;
  /** Why a file the import writes fails its kind's schema (it is skipped then), or undefined. */
  problemOf: (f: PlannedFile, doc: Record<string, unknown>) => string | undefined;
  skipped: Skipped[];
}

/** git's blob id of a text: a file whose id it is holds exactly that text. */
function blobId(text: string): string {
  const body = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/**
 * Decides every file's change. A file that is byte for byte what this import would write is
 * recognised by its blob id, unread; only the others are read (an unchanged re-import
 * of thousands of files reads none).
 */
export async function planChanges(a: PlanInput): Promise<PlanResult> {
  const oids = new Map(a.current.map((f) => [f.path, f.oid]));
  const out: PlanResult = { changes: [], counts: a.counts, conflicts: [] };
  const pending: PlannedFile[] = [];
  for (const f of a.planned) {
    const oid = oids.get(f.path);
    if (oid === undefined) planFile(a, f, undefined, out);
    else if (blobId(textOf(f, JSON.parse(f.json) as Record<string, unknown>, a.generatedAt)) === oid) a.counts[f.kind].unchanged++;
    else pending.push(f);
  }
  const wanted = new Set(a.planned.map((f) => f.path));
  const unsure = new Set(pending.map((f) => f.path));
  const toRead = a.current.filter((f) => !wanted.has(f.path) || unsure.has(f.path));
  const texts = new Map((await a.read(toRead)).map((t) => [t.path, t.text]));
  for (const f of pending) planFile(a, f, texts.get(f.path), out);
  for (const f of a.current) if (!wanted.has(f.path)) planVanished(a, f.path, texts.get(f.path) ?? '', out);
  return out;
}

/** A planned file: created, unchanged, updated, or a conflict when a person edited it. */
function planFile(a: PlanInput, f: PlannedFile, text: string | undefined, out: PlanResult): void {
  const write = () => {
    const doc = JSON.parse(f.json) as Record<string, unknown>;
    const problem = a.problemOf(f, doc);
    if (problem) a.skipped.push({ unique_id: f.unique_id, reason: problem });
    else out.changes.push({ path: f.path, content: textOf(f, doc, a.generatedAt) });
    return !problem;
  };
  if (text === undefined) {
    if (write()) a.counts[f.kind].created++;
    return;
  }
  const decided = decide(text, f.fingerprint);
  if (decided === 'unchanged') a.counts[f.kind].unchanged++;
  else if (decided === 'update') {
    if (write()) a.counts[f.kind].updated++;
  } else out.conflicts.push({ path: f.path, unique_id: f.unique_id, reason: decided.conflict });
}

/** A file of this project and connection whose node is gone: deleted, unless a person edited it. */
function planVanished(a: PlanInput, path: string, text: string, out: PlanResult): void {
  const kind = a.kindOf(path);
  const doc = kind && /^source: dbt$/m.test(text) ? parsed(text) : undefined;
  if (!kind || !doc || doc['source'] !== 'dbt' || !a.owned(doc, path)) return;
  const dbt = isRecord(doc['dbt']) ? doc['dbt'] : {};
  if (dbt['fingerprint'] !== fingerprintOf(doc)) {
    out.conflicts.push({ path, unique_id: String(dbt['unique_id'] ?? ''), reason: 'its dbt node is gone, and a person edited it after the import: not deleted' });
    return;
  }
  out.changes.push({ path, content: null });
  a.counts[kind].deleted++;
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
function decide(text: string, fp: string): 'unchanged' | 'update' | { conflict: string } {
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
