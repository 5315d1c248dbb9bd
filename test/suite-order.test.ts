// The order the suite's test files start in (test/helpers/file-order.ts): longest first by the last
// whole run's wall times, untimed files before them all.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepTimes, longestFirst } from './helpers/file-order.ts';

test('a whole run keeps its wall times, and the next run starts untimed files, then the longest, then by name', (t) => {
  process.env['XDG_CACHE_HOME'] = mkdtempSync(join(tmpdir(), 'sextant-order-'));
  const mirror = '/tmp/sextant-suite-x';
  t.deepEqual(['b', 'a'].map((f) => join(mirror, `test/${f}.test.js`)).sort(longestFirst(mirror)), [join(mirror, 'test/a.test.js'), join(mirror, 'test/b.test.js')], 'with nothing kept, by name');

  const dir = mkdtempSync(join(tmpdir(), 'sextant-times-'));
  writeFileSync(join(dir, 'file-times.tsv'), [`900\t1000\t${mirror}/test/short.test.js`, `5000\t40000\tfile://${mirror}/test/web/long.test.js`, `100\t1000\t${mirror}/test/also-short.test.js`].join('\n'));
  keepTimes(join(dir, 'file-times.tsv'), mirror);
  t.is(readFileSync(join(process.env['XDG_CACHE_HOME'], 'sextant-ci', 'test-file-times.tsv'), 'utf8'), 'test/short.test.js\t1000\ntest/web/long.test.js\t40000\ntest/also-short.test.js\t1000\n');

  // The next run, in another mirror: the same files by their path inside it, and one new file.
  const next = '/tmp/sextant-suite-y';
  const files = ['test/short.test.js', 'test/also-short.test.js', 'test/web/long.test.js', 'test/new.test.js'].map((f) => join(next, f));
  t.deepEqual(files.sort(longestFirst(next)), ['test/new.test.js', 'test/web/long.test.js', 'test/also-short.test.js', 'test/short.test.js'].map((f) => join(next, f)));
});
