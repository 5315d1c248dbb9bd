// The README stands on its own in a clone: its links stay in the repository, and it documents every
// variable the CLI reads.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });

test('the README starts with the two set-up commands', (t) => {
  t.true(readme.startsWith('# Sextant\n\n```sh\nnpm ci && npm start     # serves the gateway with a demo organization at http://127.0.0.1:8080\nnpm ci && npm test      # type check, lint, and the whole test suite\n```'));
});

test('every link of the README leads to a file of the repository or a heading of the README', (t) => {
  const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  t.true(targets.length > 0);
  for (const target of targets) {
    if (target.startsWith('#')) continue;
    t.false(/^[a-z]+:/i.test(target), `${target} leaves the repository`);
    t.true(existsSync(join(root, target.split('#')[0]!)), `${target} exists`);
  }
  t.notRegex(readme, /\.\.\/shared\//, 'no paths outside the clone');
});

test('every environment variable the CLI reads is documented in the README', (t) => {
  const read = new Set(files(join(root, 'src/cli')).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/env\['([A-Z_]+)'\]|\['[a-z_]+', '([A-Z_]+)'\]/g)].map((m) => (m[1] ?? m[2])!)));
  t.true(read.has('SEXTANT_SERVER') && read.has('GITHUB_SHA'));
  t.deepEqual([...read].filter((name) => !readme.includes(`\`${name}\``)), []);
});

test('the folder the CLI writes answers to is ignored by git', (t) => {
  t.true(readFileSync(join(root, '.gitignore'), 'utf8').split('\n').includes('sextant-output/'));
});
