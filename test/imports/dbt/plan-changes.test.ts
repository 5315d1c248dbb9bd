// Deciding an import's changes one planned file at a time: new files are written as blobs at once and
// committed by id, files byte for byte the same are not read, files that differ are read in batches
// (a new provenance time alone is no change), people's edits are conflicts, vanished nodes are deleted,
// and only the files an update rewrites are built and written again. Within a process, a re-import
// decides the tables whose inputs it rendered before without building them, and still finds every change.
import test from 'ava';
import { createHash } from 'node:crypto';
import { planChanges, type PlanInput } from '../../../src/imports/dbt/plan-changes.ts';
import type { PlannedDoc } from '../../../src/imports/dbt/plan-import.ts';
import type { KnowledgeFile } from '../../../src/imports/dbt/ports.ts';
import { createRenderMemo, type RenderMemo } from '../../../src/imports/dbt/render-memo.ts';
import { emptyCounts, type Skipped } from '../../../src/imports/dbt/summary.ts';

const blobId = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0`).update(text).digest('hex');

/** A repository of blobs by id, and the files of a branch. */
function store() {
  const blobs = new Map<string, string>();
  const writes: string[] = [];
  const reads: number[] = [];
  return {
    blobs,
    writes,
    reads,
    write: async (text: string) => {
      const oid = blobId(text);
      blobs.set(oid, text);
      writes.push(text);
      return oid;
    },
    read: async (files: KnowledgeFile[]) => {
      reads.push(files.length);
      return files.map((f) => ({ path: f.path, text: blobs.get(f.oid)! }));
    },
  };
}

const doc = (name: string, description: string): PlannedDoc => ({
  path: `tables/wh/analytics.${name}.yaml`,
  kind: 'tables',
  unique_id: `model.p.${name}`,
  doc: { connection: 'wh', schema: 'analytics', name, description, source: 'dbt', dbt: { project: 'p', unique_id: `model.p.${name}` } },
});

/** The planning's input; each planned item's source is its document's JSON (equal sources, equal documents). */
function input(s: ReturnType<typeof store>, planned: PlannedDoc[], current: KnowledgeFile[], generatedAt: string, memo: RenderMemo = createRenderMemo()): PlanInput & { walks: number; builds: number } {
  const a = {
    walks: 0,
    builds: 0,
    planned: () => {
      a.walks++;
      return planned.map((d) => ({ kind: d.kind, unique_id: d.unique_id, source: JSON.stringify(d.doc), build: () => (a.builds++, d) }));
    },
    memo,
    current,
    read: s.read,
    write: s.write,
    generatedAt,
    owned: (d: Record<string, unknown>) => (d['dbt'] as { project?: string }).project === 'p',
    kindOf: (path: string) => (path.startsWith('tables/') ? ('tables' as const) : undefined),
    counts: emptyCounts(),
    problemOf: (f: PlannedDoc) => (f.doc['description'] === 'invalid' ? 'not a valid tables item' : undefined),
    skipped: [] as Skipped[],
  };
  return a;
}

/** The branch after a commit of `changes` on `files`. */
function applied(files: KnowledgeFile[], changes: { path: string; oid?: string; content?: string | null }[]): KnowledgeFile[] {
  const byPath = new Map(files.map((f) => [f.path, f.oid]));
  for (const c of changes) {
    if (c.oid) byPath.set(c.path, c.oid);
    else byPath.delete(c.path);
  }
  return [...byPath].map(([path, oid]) => ({ path, oid }));
}

test('new files are written as blobs and committed by id; a re-import with only a new time reads in batches and writes nothing', async (t) => {
  const s = store();
  const planned = Array.from({ length: 150 }, (_, i) => doc(`m${i}`, `Model ${i}`));
  const first = await planChanges(input(s, planned, [], '2026-01-01T00:00:00Z'));
  t.like(first.counts.tables, { created: 150, updated: 0, unchanged: 0 });
  t.is(s.writes.length, 150);
  t.true(first.changes.every((c) => 'oid' in c && s.blobs.has(c.oid)));
  const branch = applied([], first.changes);
  s.writes.length = 0;
  const same = await planChanges(input(s, planned, branch, '2026-01-01T00:00:00Z'));
  t.like(same.counts.tables, { unchanged: 150 });
  t.deepEqual([same.changes, s.reads], [[], []], 'byte for byte the same: nothing read');
  const later = await planChanges(input(s, planned, branch, '2026-02-01T00:00:00Z'));
  t.like(later.counts.tables, { created: 0, updated: 0, unchanged: 150 });
  t.deepEqual(later.changes, []);
  t.deepEqual(s.reads, [64, 64, 22], 'read a batch at a time');
  t.is(s.writes.length, 0);
});

test('an update is built again and written, an edit is a conflict, a vanished node is deleted, an invalid file is skipped', async (t) => {
  const s = store();
  const names = ['kept', 'changed', 'edited', 'gone'];
  const first = await planChanges(input(s, names.map((n) => doc(n, n)), [], '2026-01-01T00:00:00Z'));
  const branch = applied([], first.changes);
  // A person edits one file after the import.
  const edited = branch.find((f) => f.path.includes('.edited.'))!;
  edited.oid = await s.write(s.blobs.get(edited.oid)!.replace('description: edited', 'description: by hand'));
  s.writes.length = 0;
  const planned = [doc('kept', 'kept'), doc('changed', 'new text'), doc('edited', 'new text too'), doc('added', 'added'), doc('broken', 'invalid')];
  const a = input(s, planned, branch, '2026-02-01T00:00:00Z');
  const out = await planChanges(a);
  t.like(out.counts.tables, { created: 1, updated: 1, unchanged: 1, deleted: 1 });
  t.deepEqual(out.conflicts.map((c) => c.path), ['tables/wh/analytics.edited.yaml']);
  t.deepEqual(a.skipped.map((x) => x.unique_id), ['model.p.broken']);
  t.deepEqual(out.changes.map((c) => [c.path, 'oid' in c ? 'written' : c.content]).sort(), [
    ['tables/wh/analytics.added.yaml', 'written'],
    ['tables/wh/analytics.changed.yaml', 'written'],
    ['tables/wh/analytics.gone.yaml', null],
  ]);
  t.is(a.walks, 2, 'the plan is walked again for the update');
  t.is(s.writes.length, 2, 'only the new and the updated file are written');
  t.regex(s.writes.find((w) => w.includes('name: changed'))!, /description: new text\n/);
});

test('a re-import in the same process decides unchanged tables from what it rendered: none built, none read', async (t) => {
  const s = store();
  const memo = createRenderMemo();
  const planned = Array.from({ length: 150 }, (_, i) => doc(`m${i}`, `Model ${i}`));
  const branch = applied([], (await planChanges(input(s, planned, [], '2026-01-01T00:00:00Z', memo))).changes);
  for (const at of ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z']) {
    const again = input(s, planned, branch, at, memo);
    const out = await planChanges(again);
    t.like(out.counts.tables, { created: 0, updated: 0, unchanged: 150 }, at);
    t.deepEqual([out.changes, again.builds, s.reads], [[], 0, []], `${at}: the blobs it wrote, nothing built or read`);
  }
  // Another process (a new memo): at a new time the files are read once, their contents' fingerprints kept.
  const restarted = createRenderMemo();
  const later = input(s, planned, branch, '2026-03-01T00:00:00Z', restarted);
  const out = await planChanges(later);
  t.like(out.counts.tables, { unchanged: 150 });
  t.deepEqual([out.changes, later.builds, s.reads], [[], 150, [64, 64, 22]]);
  const again = input(s, planned, branch, '2026-04-01T00:00:00Z', restarted);
  t.like((await planChanges(again)).counts.tables, { unchanged: 150 });
  t.deepEqual([again.builds, s.reads.length], [0, 3], 'a time after that: nothing built or read');
  t.is(s.writes.length, 150);
});

test('with what the process rendered, an edit, a deleted file and a changed node are still found, at the same time and at a new one', async (t) => {
  for (const laterAt of ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z']) {
    const s = store();
    const memo = createRenderMemo();
    const names = ['kept', 'changed', 'edited', 'deleted'];
    let branch = applied([], (await planChanges(input(s, names.map((n) => doc(n, n)), [], '2026-01-01T00:00:00Z', memo))).changes);
    // Once unchanged at the later time first.
    await planChanges(input(s, names.map((n) => doc(n, n)), branch, laterAt, memo));
    const edited = branch.find((f) => f.path.includes('.edited.'))!;
    edited.oid = await s.write(s.blobs.get(edited.oid)!.replace('description: edited', 'description: by hand'));
    branch = branch.filter((f) => !f.path.includes('.deleted.'));
    s.writes.length = 0;
    const a = input(s, [doc('kept', 'kept'), doc('changed', 'new text'), doc('edited', 'edited'), doc('deleted', 'deleted')], branch, laterAt, memo);
    const out = await planChanges(a);
    t.like(out.counts.tables, { created: 1, updated: 1, unchanged: 1, deleted: 0 }, laterAt);
    t.deepEqual(out.conflicts.map((c) => c.path), ['tables/wh/analytics.edited.yaml']);
    t.deepEqual(out.changes.map((c) => c.path).sort(), ['tables/wh/analytics.changed.yaml', 'tables/wh/analytics.deleted.yaml']);
    t.regex(s.writes.find((w) => w.includes('name: changed'))!, /description: new text\n/);
  }
});
