// The order ava starts the test files in: longest first, by the wall time each took in the last run of
// the whole suite on this machine, kept outside the checkout (like CI's compiled binaries, .ci/run).
// ava runs two files at a time, each starting when a slot frees, in the order it is given. In name
// order the browser tests (test/web, up to ~45 s each) came last, and the run ended with one slot idle
// while the other finished them; longest first, the last files to start are the shortest and the two
// slots end together. A file the last run did not time (a new one, or any on a machine's first run)
// goes first. The order changes when files start, never what they do: each runs in its own process.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** Where the last whole run's times are kept: `test/x.test.js`, a tab, its wall time in ms, per line. */
const kept = (): string => join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'sextant-ci', 'test-file-times.tsv');

/** The kept wall time of each test file, by its path relative to the mirror; empty when none is kept. */
function keptTimes(): Map<string, number> {
  if (!existsSync(kept())) return new Map();
  const rows = readFileSync(kept(), 'utf8').split('\n').map((line) => line.split('\t'));
  return new Map(rows.filter((r) => r.length === 2 && Number.isFinite(Number(r[1]))).map(([file, ms]) => [file!, Number(ms)]));
}

/** ava's `sortTestFiles` for the suite in `mirror`: untimed files first, then the longest first, then by name. */
export function longestFirst(mirror: string): (a: string, b: string) => number {
  const times = keptTimes();
  const weight = (file: string) => times.get(relative(mirror, file)) ?? Infinity;
  return (a, b) => {
    const wa = weight(a);
    const wb = weight(b);
    return wa === wb ? a.localeCompare(b) : wb > wa ? 1 : -1;
  };
}

/**
 * Keeps the wall times of a run of the whole suite (file-times.ts's rows: CPU, wall, file)
 * for the next run's order; written whole, then renamed, so a run stopped half-way leaves the last.
 */
export function keepTimes(fileTimes: string, mirror: string): void {
  const rows = readFileSync(fileTimes, 'utf8').trim().split('\n').map((line) => line.split('\t'));
  const lines = rows.map(([, wall, url]) => `${relative(mirror, url!.replace(/^file:\/\//, ''))}\t${wall}`);
  const path = kept();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${lines.join('\n')}\n`);
  renameSync(`${path}.tmp`, path);
}
