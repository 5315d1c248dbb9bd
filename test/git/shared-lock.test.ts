// Knowledge repositories on one data folder written by several processes (gateway replicas): real
// child processes, real files, the system git as judge. The shared lock is the lock file beside the
// repository, or a PostgreSQL advisory lock when the local server answers (it must under CI=true).
import test, { type ExecutionContext } from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import git, { type FsClient } from 'isomorphic-git';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { knowledgeWriteLock } from '../../src/compose/knowledge-lock.ts';
import type { Config } from '../../src/config.ts';
import { advisoryKey, commitChanges, createFileLock, openRepo, resolveRef, type SharedLock } from '../../src/git/index.ts';
import { freshPgDatabase, SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

const script = new URL('./fixtures/shared-writer.ts', import.meta.url).pathname;
type Lock = { kind: 'file' } | { kind: 'pg'; url: string };

interface Writer {
  child: ChildProcess;
  acks: { ack: string; oid: string }[];
  /** Resolves once `n` writes are acknowledged, or when the first line matching `held` arrives. */
  after(n: number): Promise<void>;
  exited: Promise<number | null>;
}

function startWriter(dataDir: string, name: string, count: number | 'hold', lock: Lock): Writer {
  const args = [dataDir, name, String(count), lock.kind, ...(lock.kind === 'pg' ? [lock.url] : [])];
  const child = spawn(process.execPath, [...nodeEntry(script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acks: Writer['acks'] = [];
  const waiting: { n: number; resolve(): void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const msg = JSON.parse(line) as { ack?: string; oid?: string; held?: boolean };
    if (msg.ack) acks.push({ ack: msg.ack, oid: msg.oid! });
    for (const w of waiting.filter((w) => msg.held || acks.length >= w.n)) w.resolve();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const after = (n: number) => new Promise<void>((resolve) => (acks.length >= n ? resolve() : waiting.push({ n, resolve })));
  return { child, acks, after, exited };
}

function dataFolder(t: ExecutionContext): { dataDir: string; gitdir: string } {
  const dataDir = fs.mkdtempSync(join(tmpdir(), 'sextant-shared-'));
  t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return { dataDir, gitdir: join(dataDir, 'knowledge', 'org.git') };
}

const gitOut = (gitdir: string, ...args: string[]) => spawnSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' });

async function twoWritersOneKilled(t: ExecutionContext, lock: Lock): Promise<void> {
  const { dataDir, gitdir } = dataFolder(t);
  // The repository exists before the burst, as it does once an organization has knowledge.
  t.is(await startWriter(dataDir, 'seed', 1, lock).exited, 0);
  const a = startWriter(dataDir, 'a', 250, lock);
  const b = startWriter(dataDir, 'b', 250, lock);
  await b.after(60);
  b.child.kill('SIGKILL');
  t.is(await b.exited, null);
  t.is(await a.exited, 0, 'the survivor finishes every write of its burst');
  t.is(a.acks.length, 250);
  t.true(b.acks.length >= 60 && b.acks.length < 250, `the killed writer acknowledged ${b.acks.length} writes`);

  const history = new Set(gitOut(gitdir, 'rev-list', 'main').stdout.split('\n'));
  const files = new Set(gitOut(gitdir, 'ls-tree', '-r', '--name-only', 'main').stdout.split('\n'));
  const acked = [...a.acks, ...b.acks];
  t.deepEqual(acked.filter((w) => !history.has(w.oid)), [], 'every acknowledged commit is in the branch history');
  t.deepEqual(acked.filter((w) => !files.has(w.ack)), [], 'every acknowledged file is on the branch');
  const fsck = gitOut(gitdir, 'fsck', '--full', '--no-dangling');
  t.is(fsck.status, 0, fsck.stderr);
  t.notRegex(fsck.stderr, /error/i);
  t.log(`acknowledged: survivor ${a.acks.length}, killed ${b.acks.length}; commits on main ${history.size - 1}; lost 0`);
}

async function pgLock(t: ExecutionContext): Promise<Lock | undefined> {
  const url = await freshPgDatabase(t);
  if (!url) t.log(SKIP_PG_STORE.replace('PostgreSQL store tests', 'advisory-lock tests'));
  return url ? { kind: 'pg', url } : undefined;
}

test.serial('two processes writing 250 commits each on one branch, one killed with kill -9 mid-burst, keep every acknowledged commit and leave git fsck clean (lock file)', async (t) => {
  await twoWritersOneKilled(t, { kind: 'file' });
});

test.serial('two processes writing 250 commits each on one branch, one killed with kill -9 mid-burst, keep every acknowledged commit and leave git fsck clean (PostgreSQL advisory lock)', async (t) => {
  const lock = await pgLock(t);
  if (!lock) return t.pass();
  await twoWritersOneKilled(t, lock);
});

/** A writer killed while it held the lock file, between creating a ref lock file and renaming it. */
async function killedHolder(t: ExecutionContext): Promise<{ dataDir: string; gitdir: string; lockPath: string }> {
  const { dataDir, gitdir } = dataFolder(t);
  t.is(await startWriter(dataDir, 'seed', 1, { kind: 'file' }).exited, 0);
  const holder = startWriter(dataDir, 'holder', 'hold', { kind: 'file' });
  await holder.after(Infinity);
  const lockPath = `${gitdir}.lock`;
  t.true(await lockfile.check(gitdir, { lockfilePath: lockPath, realpath: false, stale: 2000 }), 'a live holder keeps its lock fresh');
  holder.child.kill('SIGKILL');
  await holder.exited;
  t.true(fs.existsSync(join(gitdir, 'refs', 'heads', 'main.lock')));
  return { dataDir, gitdir, lockPath };
}

async function writeAfter(t: ExecutionContext, gitdir: string): Promise<void> {
  const repo = await openRepo({ fs: fs as unknown as FsClient, gitdir, shared: createFileLock({ staleMs: 2000, onLost: () => t.fail('lock lost') }) });
  const before = await resolveRef({ repo, ref: 'main' });
  const after = await commitChanges({ repo, branch: 'main', author: { name: 'C', email: 'c@example.com', timestamp: 1 }, message: 'after', changes: [{ path: 'notes/after.yaml', content: 'x\n' }] });
  t.deepEqual((await git.readCommit({ fs: repo.fs, gitdir, oid: after.oid })).commit.parent, [before!]);
  t.false(fs.existsSync(join(gitdir, 'refs', 'heads', 'main.lock')), 'the ref lock file of the dead writer is gone');
  t.false(fs.existsSync(`${gitdir}.lock`), 'the lock is released after the write');
  t.is(gitOut(gitdir, 'fsck', '--full', '--no-dangling').status, 0);
}

test.serial('a lock file whose holder on this machine was killed mid-update is taken over at once, and the ref lock file it left blocks no write', async (t) => {
  const { gitdir } = await killedHolder(t);
  await writeAfter(t, gitdir);
});

test.serial("claims of this machine's processes that ended are cleared by the next process to claim; its own, other machines' and unreadable ones stay", async (t) => {
  const { dataDir, gitdir } = dataFolder(t);
  // Three processes that each wrote once and exited, as restarts do: each leaves its claim and clears its predecessors'.
  for (const name of ['w1', 'w2', 'w3']) t.is(await startWriter(dataDir, name, 1, { kind: 'file' }).exited, 0);
  const claims = () => fs.readdirSync(join(dataDir, 'knowledge')).filter((n) => n.startsWith('org.git.lock.owner-')).sort();
  t.is(claims().length, 1, "only the last ended process's claim is left");
  const lockPath = `${gitdir}.lock`;
  const host = (await import('node:os')).hostname();
  fs.writeFileSync(`${lockPath}.owner-another-host-1`, '');
  fs.writeFileSync(`${lockPath}.owner-${host}-not-a-pid`, '');
  const living = startWriter(dataDir, 'holder', 'hold', { kind: 'file' });
  await living.after(Infinity);
  living.child.kill('SIGKILL');
  await living.exited;
  await writeAfter(t, gitdir);
  t.deepEqual(claims(), [`org.git.lock.owner-${host}-${process.pid}`, `org.git.lock.owner-${host}-not-a-pid`, 'org.git.lock.owner-another-host-1'].sort(), 'only this process and claims it cannot judge are left');
});

test.serial('a lock file held from another machine is taken over once it goes stale', async (t) => {
  const { gitdir, lockPath } = await killedHolder(t);
  // A process of another machine claimed the lock too: as far as this machine can tell it may hold it,
  // so only the stale limit ends the dead holder's lock.
  fs.writeFileSync(`${lockPath}.owner-another-host-1`, '');
  const repo = await openRepo({ fs: fs as unknown as FsClient, gitdir, shared: createFileLock({ staleMs: 2000, onLost: () => t.fail('lock lost') }) });
  const waiting = commitChanges({ repo, branch: 'main', author: { name: 'W', email: 'w@example.com', timestamp: 1 }, message: 'waits', changes: [{ path: 'notes/waits.yaml', content: 'w\n' }] });
  t.true(await lockfile.check(gitdir, { lockfilePath: lockPath, realpath: false, stale: 2000 }), 'not stale yet, so not taken over');
  // The stale limit passing, without waiting for it: the lock's last touch moves a minute back.
  const past = new Date(Date.now() - 60_000);
  fs.utimesSync(lockPath, past, past);
  t.true((await waiting).changed);
  await writeAfter(t, gitdir);
});

test.serial('an advisory lock whose holder was killed is free at once, and the ref lock file it left blocks no write', async (t) => {
  const lock = await pgLock(t);
  if (!lock || lock.kind !== 'pg') return t.pass();
  const { dataDir, gitdir } = dataFolder(t);
  t.is(await startWriter(dataDir, 'seed', 1, lock).exited, 0);
  const holder = startWriter(dataDir, 'holder', 'hold', lock);
  await holder.after(Infinity);
  holder.child.kill('SIGKILL');
  await holder.exited;
  const next = startWriter(dataDir, 'next', 3, lock);
  t.is(await next.exited, 0);
  t.is(next.acks.length, 3);
  t.is(gitOut(gitdir, 'rev-parse', 'main').stdout.trim(), next.acks[2]!.oid);
});

test.serial('a tip moved by another process is seen by the next read, and the next write builds on it', async (t) => {
  const { dataDir, gitdir } = dataFolder(t);
  t.is(await startWriter(dataDir, 'seed', 1, { kind: 'file' }).exited, 0);
  const repo = await openRepo({ fs: fs as unknown as FsClient, gitdir, shared: createFileLock({ onLost: () => t.fail('lock lost') }) });
  const first = await resolveRef({ repo, ref: 'main' });
  t.is(await resolveRef({ repo, ref: 'main' }), first, 'kept in memory while nothing moves');
  const other = startWriter(dataDir, 'other', 1, { kind: 'file' });
  t.is(await other.exited, 0);
  const moved = other.acks[0]!.oid;
  t.not(moved, first);
  t.is(await resolveRef({ repo, ref: 'main' }), moved);
  const mine = await commitChanges({ repo, branch: 'main', author: { name: 'M', email: 'm@example.com', timestamp: 1 }, message: 'mine', changes: [{ path: 'notes/mine.yaml', content: 'm\n' }] });
  t.deepEqual((await git.readCommit({ fs: repo.fs, gitdir, oid: mine.oid })).commit.parent, [moved]);
});

test('each organization has its own advisory lock key, the same in every process', (t) => {
  t.is(advisoryKey('org'), advisoryKey('org'));
  t.not(advisoryKey('org'), advisoryKey('org2'));
  t.regex(advisoryKey('org'), /^-?\d+$/);
});

test.serial('with SEXTANT_DATABASE_URL the knowledge lock is an advisory lock per organization; without, the lock file', async (t) => {
  t.is((await knowledgeWriteLock({ databaseUrl: undefined } as Config)).shared, undefined, 'undefined: knowledge deps use the lock file');
  const lock = await pgLock(t);
  if (!lock || lock.kind !== 'pg') return t.pass();
  const chosen = await knowledgeWriteLock({ databaseUrl: lock.url } as Config);
  t.teardown(() => chosen.close());
  const probe = new pg.Client({ connectionString: lock.url });
  await probe.connect();
  t.teardown(() => probe.end());
  const free = async (key: string) => (await probe.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [advisoryKey(key)])).rows[0]!.ok;
  const release = await chosen.shared!.acquire({ key: 'org', gitdir: '/unused/org.git' });
  t.false(await free('org'), 'held for this organization');
  t.true(await free('org2'), 'another organization is not blocked');
  await release();
  t.true(await free('org'), 'free once released');
});

test('writes of one process queue in its own chain before the shared lock, which each takes once and alone', async (t) => {
  const { gitdir } = dataFolder(t);
  let held = 0;
  let most = 0;
  let taken = 0;
  const shared: SharedLock = {
    async acquire() {
      taken++;
      most = Math.max(most, ++held);
      return async () => void held--;
    },
  };
  const repo = await openRepo({ fs: fs as unknown as FsClient, gitdir, shared });
  const writes = Array.from({ length: 10 }, (_, i) => commitChanges({ repo, branch: 'main', author: { name: 'P', email: 'p@example.com', timestamp: 1 }, message: `w${i}`, changes: [{ path: `notes/p${i}.yaml`, content: `${i}\n` }] }));
  t.is((await Promise.all(writes)).filter((w) => w.changed).length, 10);
  t.is(taken, 10);
  t.is(most, 1, 'a process never contends with itself');
  t.false(fs.existsSync(join(gitdir, 'sextant-writing')), 'no marker once the writes are done');
});
