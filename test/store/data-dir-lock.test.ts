import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLocked, LOCK_FILE, lockDataDir } from '../../src/store/data-dir-lock.ts';

const folder = (t: { teardown(fn: () => void): void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** The pid of a process that has ended (and been reaped). */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

test('the lock file names the process holding the folder and goes away on release', (t) => {
  const dir = folder(t);
  const lock = lockDataDir(dir);
  t.is(readFileSync(join(dir, LOCK_FILE), 'utf8').trim(), String(process.pid));
  lock.release();
  lock.release();
  t.false(existsSync(join(dir, LOCK_FILE)));
});

test('a second holder is refused while the first process lives, with its pid', (t) => {
  const dir = folder(t);
  // The test runner's parent is alive: a lock in its name is held.
  writeFileSync(join(dir, LOCK_FILE), `${process.ppid}\n`);
  const err = t.throws(() => lockDataDir(dir), { instanceOf: DataDirLocked });
  t.is(err?.code, 'DATA_DIR_LOCKED');
  t.is(err?.pid, process.ppid);
  t.is(readFileSync(join(dir, LOCK_FILE), 'utf8').trim(), String(process.ppid));
});

test('a lock left by a dead process is taken over', (t) => {
  const dir = folder(t);
  writeFileSync(join(dir, LOCK_FILE), `${deadPid()}\n`);
  const lock = lockDataDir(dir);
  t.is(readFileSync(join(dir, LOCK_FILE), 'utf8').trim(), String(process.pid));
  lock.release();
});

test('an empty or unreadable lock (a crash mid-write) is taken over', (t) => {
  const dir = folder(t);
  writeFileSync(join(dir, LOCK_FILE), '');
  lockDataDir(dir).release();
  t.false(existsSync(join(dir, LOCK_FILE)));
});

test('a lock in this very pid (a container restarted with the same pid) is taken over', (t) => {
  const dir = folder(t);
  writeFileSync(join(dir, LOCK_FILE), `${process.pid}\n`);
  t.notThrows(() => lockDataDir(dir).release());
});

test('a takeover in progress by another process refuses the newcomer; one abandoned long ago does not', (t) => {
  const dir = folder(t);
  writeFileSync(join(dir, LOCK_FILE), `${deadPid()}\n`);
  const marker = join(dir, `${LOCK_FILE}.takeover`);
  writeFileSync(marker, `${process.ppid}\n`);
  t.throws(() => lockDataDir(dir), { instanceOf: DataDirLocked });
  const old = new Date(Date.now() - 60_000);
  utimesSync(marker, old, old);
  const lock = lockDataDir(dir);
  t.false(existsSync(marker));
  lock.release();
});

test('releasing never removes a lock another process has since taken', (t) => {
  const dir = folder(t);
  const lock = lockDataDir(dir);
  writeFileSync(join(dir, LOCK_FILE), `${process.ppid}\n`);
  lock.release();
  t.is(readFileSync(join(dir, LOCK_FILE), 'utf8').trim(), String(process.ppid));
});
