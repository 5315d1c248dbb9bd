// What an import changes on the environment, decided against the files there now. Each imported file
// carries a fingerprint of what the import wrote: a file whose content no longer matches its
// fingerprint was edited by a person and is reported as a conflict, never overwritten. Files of the
// same project and connection whose node is gone are deleted (on the environment only).
//
// Memory: the plan is walked one file at a time, and a file to create has its blob written as soon as
// its text is made (hashed and deflated into the commit's pack, src/git/write-pack.ts), so the commit
// names it by id: no document or text outlives its turn. A file that
// differs from the one there is decided after reading that one, in batches; the few that are updated
// are built again by a second walk of the plan rather than kept.
//
// An unchanged re-import: a table whose inputs an earlier import in this process rendered is decided
// from what that rendering gave (render-memo.ts), without building its document: unchanged when the
// file there is the blob it rendered (at whatever provenance time), or a blob whose content's
// fingerprint was read before and is the planned one. Anything else (a changed input, a person's edit,
// a file gone) takes the whole way below, as without the memo.
import { createHash } from 'node:crypto';
import { parse } from 'yaml';
import type { PlannedDoc, PlannedItem } from './plan-import.ts';
import type { ImportChange, KnowledgeFile, KnowledgeText } from './ports.ts';
import type { CountedKind, ImportConflict, KindCounts, Skipped } from './summary.ts';
import type { RenderMemo } from './render-memo.ts';
import { yamlText } from './yaml-text.ts';

/** Files read from the branch at a time while deciding (each batch's texts are let go before the next). */
const READ_BATCH = 64;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const hashOf = (json: string) => createHash('sha256').update(json).digest('hex').slice(0, 32);

/** The fingerprint of a document: its content without the provenance time and the fingerprint itself. */
export function fingerprintOf(doc: Record<string, unknown>): string {
  const { generated_at: _g, fingerprint: _f, ...dbt } = isRecord(doc['dbt']) ? doc['dbt'] : {};
  return hashOf(JSON.stringify({ ...doc, dbt }));
}

/** A planned document's fingerprint: not stamped yet, its JSON is the fingerprint's text, hashed as it is. */
function plannedFingerprint(doc: Record<string, unknown>): string {
  const dbt = isRecord(doc['dbt']) ? doc['dbt'] : undefined;
  const unstamped = dbt !== undefined && !('generated_at' in dbt) && !('fingerprint' in dbt);
  return unstamped ? hashOf(JSON.stringify(doc)) : fingerprintOf(doc);
}

/** The text a planned document is written as, stamped with the manifest's generation time and its fingerprint. */
function textOf(doc: Record<string, unknown>, generatedAt: string, fingerprint: string): string {
  return yamlText({ ...doc, dbt: { ...(doc['dbt'] as Record<string, unknown>), generated_at: generatedAt, fingerprint } });
}

/** git's blob id of a text: a file whose id it is holds exactly that text. */
function blobId(text: string): string {
  const body = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

export interface PlanResult {
  changes: ImportChange[];
  counts: Record<CountedKind, KindCounts>;
  conflicts: ImportConflict[];
}

export interface PlanInput {
  /** Walks the planned items (plan-import.ts), in the same order each time; `again` for the second walk, whose skipped nodes are reported already. */
  planned: (again: boolean) => Iterable<PlannedItem>;
  /** What earlier imports in this process rendered and read. */
  memo: RenderMemo;
  /** The files under the import's folders now, by blob id, and a reader of their texts. */
  current: KnowledgeFile[];
  read: (files: KnowledgeFile[]) => Promise<KnowledgeText[]>;
  /** Writes a file's blob into the commit's pack (or as a loose object); its id. */
  write: (text: string) => Promise<string>;
  generatedAt: string;
  /** Whether an existing file belongs to this project and connection. */
  owned: (doc: Record<string, unknown>, path: string) => boolean;
  kindOf: (path: string) => CountedKind | undefined;
  counts: Record<CountedKind, KindCounts>;
  /** Why a file the import writes fails its kind's schema (it is skipped then), or undefined. */
  problemOf: (f: PlannedDoc) => string | undefined;
  skipped: Skipped[];
}

/** A planned file that differs from the one at its path: decided once that one is read. */
interface Pending {
  /** Its place in the walk of the plan, for the second walk. */
  index: number;
  path: string;
  kind: CountedKind;
  unique_id: string;
  fingerprint: string;
}

/**
 * Decides every file's change. A file that is byte for byte what this import would write is
 * recognised by its blob id, unread; only the others are read (an unchanged re-import of thousands
 * of files reads none).
 */
export async function planChanges(a: PlanInput): Promise<PlanResult> {
  const out: PlanResult = { changes: [], counts: a.counts, conflicts: [] };
  const { wanted, pending } = await walkPlan(a, out);
  const updates = new Set<number>();
  await inBatches(a, pending, (f, text, oid) => {
    const decided = decide(a.memo, oid, text, f.fingerprint);
    if (decided === 'unchanged') a.counts[f.kind].unchanged++;
    else if (decided === 'update') updates.add(f.index);
    else out.conflicts.push({ path: f.path, unique_id: f.unique_id, reason: decided.conflict });
  });
  if (updates.size > 0) await writeUpdates(a, updates, out);
  const vanished = a.current.filter((f) => !wanted.has(f.path));
  await inBatches(a, vanished, (f, text) => planVanished(a, f.path, text, out));
  return out;
}

/** The first walk: files to create are written, unchanged ones counted, the others left pending. */
async function walkPlan(a: PlanInput, out: PlanResult): Promise<{ wanted: Set<string>; pending: Pending[] }> {
  const oids = new Map(a.current.map((f) => [f.path, f.oid]));
  const wanted = new Set<string>();
  const pending: Pending[] = [];
  let index = -1;
  for (const item of a.planned(false)) {
    index++;
    const known = item.source === undefined ? undefined : a.memo.rendered(item.source);
    if (known && isUnchanged(a, known, oids.get(known.path))) {
      wanted.add(known.path);
      a.counts[item.kind].unchanged++;
      continue;
    }
    const f = item.build();
    if (!f) continue;
    wanted.add(f.path);
    const fingerprint = plannedFingerprint(f.doc);
    const text = textOf(f.doc, a.generatedAt, fingerprint);
    const oid = oids.get(f.path);
    const remember = (written: string) => item.source !== undefined && a.memo.rememberRendered(item.source, { path: f.path, fingerprint, oid: written });
    if (oid === undefined) {
      const written = await write(a, f, text, out);
      if (written === undefined) continue;
      a.counts[f.kind].created++;
      remember(written);
      continue;
    }
    const id = blobId(text);
    remember(id);
    if (id === oid) a.counts[f.kind].unchanged++;
    else pending.push({ index, path: f.path, kind: f.kind, unique_id: f.unique_id, fingerprint });
  }
  return { wanted, pending };
}

/**
 * Whether the file there (`oid`) has the content the remembered rendering plans: it is the blob that
 * rendering wrote (at this provenance time, the very text; at another, a text that reads back with the
 * same fingerprint, as the YAML writer's texts read back as written), or a blob read before whose
 * content has the rendering's fingerprint.
 */
function isUnchanged(a: PlanInput, known: { fingerprint: string; oid: string }, oid: string | undefined): boolean {
  return oid !== undefined && (known.oid === oid || a.memo.contentFingerprint(oid) === known.fingerprint);
}

/** The second walk, over the files to update only (their places in the first). */
async function writeUpdates(a: PlanInput, updates: Set<number>, out: PlanResult): Promise<void> {
  let index = -1;
  for (const item of a.planned(true)) {
    if (!updates.has(++index)) continue;
    const f = item.build();
    if (f && (await write(a, f, textOf(f.doc, a.generatedAt, plannedFingerprint(f.doc)), out)) !== undefined) a.counts[f.kind].updated++;
  }
}

/** Writes a planned file's blob, or skips it when it fails its kind's schema; the blob's id when written. */
async function write(a: PlanInput, f: PlannedDoc, text: string, out: PlanResult): Promise<string | undefined> {
  const problem = a.problemOf(f);
  if (problem) {
    a.skipped.push({ unique_id: f.unique_id, reason: problem });
    return undefined;
  }
  const oid = await a.write(text);
  out.changes.push({ path: f.path, oid });
  return oid;
}

/** Reads the files' texts a batch at a time and hands each to `each` with its blob id, in order. */
async function inBatches<T extends { path: string }>(a: PlanInput, files: T[], each: (f: T, text: string, oid: string) => void): Promise<void> {
  const oids = new Map(a.current.map((f) => [f.path, f.oid]));
  for (let i = 0; i < files.length; i += READ_BATCH) {
    const batch = files.slice(i, i + READ_BATCH);
    const texts = new Map((await a.read(batch.map((f) => ({ path: f.path, oid: oids.get(f.path)! })))).map((t) => [t.path, t.text]));
    for (const f of batch) each(f, texts.get(f.path) ?? '', oids.get(f.path)!);
  }
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

/** An existing file at a planned path (blob `oid`): unchanged, to update, or a conflict and why. */
function decide(memo: RenderMemo, oid: string, text: string, fp: string): 'unchanged' | 'update' | { conflict: string } {
  const doc = parsed(text);
  if (!doc) return { conflict: 'the file there is not valid YAML' };
  if (doc['source'] !== 'dbt') return { conflict: 'a file not imported from dbt is there' };
  const dbt = isRecord(doc['dbt']) ? doc['dbt'] : {};
  const current = fingerprintOf(doc);
  // A later import finds this blob unchanged without reading it again, when its fingerprint is the planned one.
  memo.rememberContent(oid, current);
  // Same content as planned (whatever time it was stamped with): nothing to write.
  if (current === fp) return 'unchanged';
  if (dbt['fingerprint'] !== current) return { conflict: 'edited by a person after the import' };
  return 'update';
}
