// House rules for solved problems: each is solved once, by a maintained library behind one module.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
const sources = files(join(root, 'src')).map((p) => ({ path: relative(root, p), text: readFileSync(p, 'utf8') }));
const importsOf = (text: string) => [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

const CSV_MODULE = 'src/shared/csv.ts';
const CSV_PACKAGES = /^(csv-stringify|csv-stringify\/.*|fast-csv|@fast-csv\/.*|papaparse|csv-writer|json2csv|@json2csv\/.*)$/;
// The signature of a hand-written CSV field encoder: a regular expression testing for a quote, a comma
// and a line break, as in /[",\r\n]/.
const HAND_WRITTEN_CSV = /\/\[(?=[^\]\n]*")(?=[^\]\n]*,)(?=[^\]\n]*\\[rn])[^\]\n]{0,12}\]\//;

test('only src/shared/csv.ts uses a CSV library', (t) => {
  const offenders = sources.filter((f) => f.path !== CSV_MODULE && importsOf(f.text).some((i) => CSV_PACKAGES.test(i)));
  t.deepEqual(offenders.map((f) => f.path), []);
  t.true(importsOf(readFileSync(join(root, CSV_MODULE), 'utf8')).includes('csv-stringify/sync'));
});

test('no file but src/shared/csv.ts quotes CSV fields by hand', (t) => {
  const offenders = sources.filter((f) => f.path !== CSV_MODULE && HAND_WRITTEN_CSV.test(f.text));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('a database writes CSV itself in two files only (DuckDB\'s COPY, PostgreSQL\'s COPY), each neutralising formulas with src/shared/csv.ts\'s list', (t) => {
  const copies = sources.filter((f) => /FORMAT\s+csv/i.test(f.text)).map((f) => f.path);
  t.deepEqual(copies.sort(), ['src/data/drivers/postgres-csv-copy.ts', 'src/data/export/copy-duckdb-csv.ts']);
  for (const path of copies) {
    const copy = sources.find((f) => f.path === path)!;
    t.true(importsOf(copy.text).includes('../../shared/csv.ts'), path);
    t.regex(copy.text, /FORMULA_STARTS/, path);
  }
  t.regex(sources.find((f) => f.path === 'src/data/export/copy-duckdb-csv.ts')!.text, /neutraliseFormula/);
});

// JUnit files are XML, not HTML: XML needs &apos; and the removal of characters it cannot carry.
// Slack's mrkdwn is not HTML either: it decodes &amp;, &lt; and &gt; only (escape-html's &quot; would show).
// An Excel sheet is XML too (its writer also drops the characters XML 1.0 cannot carry).
const XML_WRITERS = new Set(['src/cli/junit.ts', 'src/subscriptions/webhook-payload.ts', 'src/data/export/xlsx-parts.ts']);
const HAND_WRITTEN_ESCAPE = /&lt;|&gt;|&quot;|&#39;|&#x27;|&#\$\{/;

test('no file writes its own HTML escaper: escape-html does it', (t) => {
  const offenders = sources.filter((f) => !XML_WRITERS.has(f.path) && HAND_WRITTEN_ESCAPE.test(f.text));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('every server-side HTML page that interpolates values imports escape-html', (t) => {
  const pages = sources.filter((f) => !f.path.startsWith('src/cli/') && /<!doctype html/i.test(f.text) && /<[a-z][^`]*\$\{/i.test(f.text));
  t.true(pages.length >= 3, 'the pages are found');
  const offenders = pages.filter((f) => !importsOf(f.text).includes('escape-html'));
  t.deepEqual(offenders.map((f) => f.path), []);
});
