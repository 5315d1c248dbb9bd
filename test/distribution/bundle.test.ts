// The gateway's bundle (dist/main.js): modules bundled into a few files still resolve paths from their own
// place in dist, what is imported on first use stays a chunk of its own, the output is ASCII (a two-byte
// source string would double its memory), packages stay in node_modules but for the listed few, and the
// start-up chunk runs as a script from V8's code cache once a run has written it.
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asciiOnly, BUNDLED_PACKAGES, bundleEntry } from '../../src/distribution/bundle.ts';

const repoRoot = new URL('../../', import.meta.url).pathname;

/** A checkout in a temporary folder: package.json, src with `files`, the repository's node_modules. */
function checkout(t: { teardown(fn: () => void): void }, files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sextant-bundle-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module', version: '9.9.9' }));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, 'src', path, '..'), { recursive: true });
    writeFileSync(join(root, 'src', path), text);
  }
  return root;
}

const VERSION_FROM_HERE = "JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version";

test('bundled modules resolve paths from their own place in dist, in the entry and in a chunk loaded on first use', async (t) => {
  const root = checkout(t, {
    'entry.ts': "import { version } from './deep/where.ts';\nconst late = await import('./lazy/late.ts');\nconsole.log(version, late.version, late.quoted);",
    'deep/where.ts': `import { readFileSync } from 'node:fs';\nexport const version: string = ${VERSION_FROM_HERE};`,
    'lazy/late.ts': `import { readFileSync } from 'node:fs';\nexport const version: string = ${VERSION_FROM_HERE};\nexport const quoted = 'import.meta.url';`,
  });
  const dist = join(root, 'dist');
  const written = await bundleEntry({ entry: join(root, 'src', 'entry.ts'), out: 'main', srcDir: join(root, 'src'), outdir: dist });
  t.true(written.includes('main.js'));
  t.true(written.some((f) => /^chunks[/\\]late-\w+\.js$/.test(f)), written.join(', '));
  t.is(execFileSync(process.execPath, [join(dist, 'main.js')], { encoding: 'utf8' }).trim(), '9.9.9 9.9.9 import.meta.url');
});

test('the bundle is ASCII: characters beyond it are escaped and mean what they meant', async (t) => {
  const root = checkout(t, { 'entry.ts': "// Größe\nconst word = 'Größe 😀';\nconsole.log(JSON.stringify([word, /^[à-ÿ]+$/.test('éè'), /\\é/.test('é')]));" });
  const dist = join(root, 'dist');
  const written = await bundleEntry({ entry: join(root, 'src', 'entry.ts'), out: 'main', srcDir: join(root, 'src'), outdir: dist });
  for (const file of written) t.regex(readFileSync(join(dist, file), 'utf8'), /^[\0-\x7f]*$/, file);
  t.is(execFileSync(process.execPath, [join(dist, 'main.js')], { encoding: 'utf8' }).trim(), JSON.stringify(['Größe 😀', true, true]));
  t.is(asciiOnly('"é\\é\\\\é"'), '"\\u00e9\\u00e9\\\\\\u00e9"');
});

test('packages load from node_modules but the listed pure-JavaScript ones, which are bundled', async (t) => {
  const root = checkout(t, { 'entry.ts': "import { sql } from 'kysely';\nimport { z } from 'zod';\nconsole.log(typeof sql, typeof z.object);" });
  const dist = join(root, 'dist');
  await bundleEntry({ entry: join(root, 'src', 'entry.ts'), out: 'main', srcDir: join(root, 'src'), outdir: dist });
  const text = [join(dist, 'main.js'), ...readdirSync(join(dist, 'chunks')).map((f) => join(dist, 'chunks', f))].map((f) => readFileSync(f, 'utf8')).join('\n');
  t.true(BUNDLED_PACKAGES.test('kysely'));
  t.false(BUNDLED_PACKAGES.test('zod'));
  t.notRegex(text, /from\s*"kysely"/);
  t.regex(text, /from\s*"zod"/);
  t.is(execFileSync(process.execPath, [join(dist, 'main.js')], { encoding: 'utf8' }).trim(), 'function function');
});

test('a build replaces the chunks of an earlier one: the same content keeps its name, what is gone is removed', async (t) => {
  const root = checkout(t, { 'entry.ts': "await import('./a.ts');", 'a.ts': 'export const a = 1;' });
  const args = { entry: join(root, 'src', 'entry.ts'), out: 'main', srcDir: join(root, 'src'), outdir: join(root, 'dist') };
  const first = await bundleEntry(args);
  t.deepEqual(await bundleEntry(args), first);
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 2;');
  const third = await bundleEntry(args);
  t.notDeepEqual(third, first);
  t.deepEqual(readdirSync(join(root, 'dist', 'chunks')).map((f) => join('chunks', f)).sort(), third.filter((f) => f.startsWith('chunks')).sort());
});

/** Runs the built main.js: its output, its warnings and errors, and the code cache it left, if any. */
function runBuilt(dist: string): { stdout: string; stderr: string; cache: string | undefined } {
  const run = spawnSync(process.execPath, [join(dist, 'main.js')], { encoding: 'utf8' });
  const cache = readdirSync(join(dist, 'chunks')).find((f) => f.endsWith('.cache'));
  return { stdout: run.stdout.trim(), stderr: run.stderr, cache: cache && join(dist, 'chunks', cache) };
}

test('the start-up chunk runs as a script, from its cache too: live imported bindings, one instance of each module, import() from its place', async (t) => {
  const root = checkout(t, {
    'entry.ts': [
      "import { count, bump } from './shared.ts';",
      "import { z } from 'zod';",
      "bump();",
      "const late = await import('./late.ts');",
      "late.bumpToo();",
      "const { sep } = await import('node:path');",
      "console.log(count, late.seen(), typeof z.object, sep, typeof import.meta.url, this === undefined);",
    ].join('\n'),
    'shared.ts': 'export let count = 0;\nexport function bump(): void {\n  count++;\n}',
    'late.ts': "import { count, bump } from './shared.ts';\nexport const bumpToo = bump;\nexport const seen = () => count;",
  });
  const dist = join(root, 'dist');
  const written = await bundleEntry({ entry: join(root, 'src', 'entry.ts'), out: 'main', srcDir: join(root, 'src'), outdir: dist });
  t.true(written.some((f) => /^chunks[/\\]main-\w+\.script\.js$/.test(f)), written.join(', '));
  // The first run compiles the script and writes its cache; the second compiles from the cache.
  for (const run of [runBuilt(dist), runBuilt(dist)]) {
    t.is(run.stdout, '2 2 function / string true');
    t.is(run.stderr, '');
    t.truthy(run.cache);
  }
});

test('the second run compiles from the cache the first wrote; a cache V8 refuses is replaced, and a rebuild keeps the cache of an unchanged script', async (t) => {
  const root = checkout(t, { 'entry.ts': "const { sep } = await import('node:path');\nconsole.log([1, 2].map((n) => n * 2).join(sep));" });
  const args = { entry: join(root, 'src', 'entry.ts'), out: 'main', srcDir: join(root, 'src'), outdir: join(root, 'dist') };
  await bundleEntry(args);
  const first = runBuilt(args.outdir);
  t.is(first.stdout, '2/4');
  t.truthy(first.cache, 'the first run wrote a cache');
  const written = statSync(first.cache!).ino;
  // Accepted: the second run leaves it as it is (a refused cache is written anew, through a rename).
  t.is(runBuilt(args.outdir).stdout, '2/4');
  t.is(statSync(first.cache!).ino, written);
  writeFileSync(first.cache!, Buffer.alloc(4096, 7));
  t.deepEqual(runBuilt(args.outdir), { ...first, stderr: '' });
  t.not(statSync(first.cache!).ino, written);
  t.notDeepEqual(readFileSync(first.cache!), Buffer.alloc(4096, 7));
  await bundleEntry(args);
  t.is(runBuilt(args.outdir).cache, first.cache);
  writeFileSync(args.entry, "console.log('changed');");
  await bundleEntry(args);
  t.deepEqual(readdirSync(join(args.outdir, 'chunks')).filter((f) => f.endsWith('.cache')), []);
});

test('during start-up the young generation keeps its size, and grows again once start-up is done', (t) => {
  const heap = new URL('../../src/distribution/start-up-heap.ts', import.meta.url).href;
  // Allocates objects that all live on (as start-up's do), and gives the young generation's size after.
  const script = `
    const v8 = await import('node:v8');
    const { startUpDone } = await import(${JSON.stringify(heap)});
    const kept = [];
    const allocate = () => { for (let i = 0; i < 400000; i++) kept.push({ i, s: 'x' + i }); };
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    const before = young();
    allocate();
    const during = young();
    startUpDone();
    allocate();
    console.log(JSON.stringify({ before, during, after: young() }));`;
  const { before, during, after } = JSON.parse(execFileSync(process.execPath, ['--import=tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' })) as { before: number; during: number; after: number };
  t.is(during, before, 'the young generation did not grow during start-up');
  t.true(after > during, `young generation after start-up: ${after} bytes`);
});
