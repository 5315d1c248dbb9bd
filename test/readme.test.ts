// The README is a short front door to docs/; together they stand on their own in a clone: their links
// stay in the repository and reach real headings, and docs/cli.md documents every variable the CLI reads.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens.
const slug = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const anchors = (markdown: string): Set<string> =>
  new Set([...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!.replace(/`/g, ''))));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

test('the README is a front door of at most 10 KB, and every page of docs/ is reachable from the docs index', (t) => {
  t.true(Buffer.byteLength(readme) <= 10 * 1024, `README is ${Buffer.byteLength(readme)} bytes`);
  const index = readFileSync(join(root, 'docs/README.md'), 'utf8');
  for (const page of pages.filter((p) => p.startsWith('docs/') && p !== 'docs/README.md')) t.true(index.includes(`](${page.slice('docs/'.length)})`), `${page} is in docs/README.md`);
});

test('every link of the README and of docs/ leads to a file of the repository, and every anchor to a heading of it', (t) => {
  let checked = 0;
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8');
    t.notRegex(text, /\.\.\/shared\//, `${page}: no paths outside the clone`);
    for (const [, target] of text.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [file, anchor] = target!.split('#') as [string, string | undefined];
      const path = file === '' ? join(root, page) : join(root, dirname(page), file);
      checked++;
      if (!existsSync(path)) { t.fail(`${page}: ${target} does not exist`); continue; }
      if (anchor !== undefined && path.endsWith('.md')) t.true(anchors(readFileSync(path, 'utf8')).has(anchor), `${page}: ${target} names no heading`);
    }
  }
  t.true(checked > 50);
  t.notRegex(readme, /\]\(https?:/, 'the README links inside the clone');
});

test('every environment variable the CLI reads is documented in docs/cli.md', (t) => {
  const read = new Set(files(join(root, 'src/cli')).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/env\['([A-Z_]+)'\]|\['[a-z_]+', '([A-Z_]+)'\]/g)].map((m) => (m[1] ?? m[2])!)));
  t.true(read.has('SEXTANT_SERVER') && read.has('GITHUB_SHA'));
  const cliPage = readFileSync(join(root, 'docs/cli.md'), 'utf8');
  t.deepEqual([...read].filter((name) => !cliPage.includes(`\`${name}\``)), []);
});

test('the folder the CLI writes answers to is ignored by git', (t) => {
  t.true(readFileSync(join(root, '.gitignore'), 'utf8').split('\n').includes('sextant-output/'));
});
