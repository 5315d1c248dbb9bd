// The whole suite compiled once, then run as JavaScript. Loading a test file through tsx cost ~1.6 s
// of CPU more than loading the same modules compiled (its hooks answer every import of the file's
// hundreds of modules from another thread), once per test file since ava gives each its own
// process: ~9 minutes of CPU over the suite. esbuild compiles every file in about a second.
//
// The compiled files live in a mirror of the checkout (a folder in the temporary directory): src,
// test, bench, bin and web as real folders holding each `.ts`/`.tsx` compiled to `.js` beside a link
// to the source, every other file and top-level entry a link to the checkout's. Paths a module
// resolves from its own `import.meta.url` (migrations, fixtures, docs, `../../src/...` for a child
// process run with tsx) resolve as they do in the checkout, and what a test starts (tsx, `node
// dist/main.js`, `npm run build`) runs the checkout's own files.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileEach, TYPESCRIPT_SOURCE } from '../../src/distribution/compile.ts';
import { bundleTests } from './suite-bundle.ts';

export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
/** The top-level folders whose TypeScript is compiled; every other entry of the checkout is linked. */
const COMPILED = new Set(['src', 'test', 'bench', 'bin', 'web']);
/** ava's test files (package.json's `ava.files`), relative to the checkout. */
const TEST_FILE = /^test\/.*\.test\.ts$/;

/** Links every file under `dir` into the mirror and returns the TypeScript sources among them. */
function mirrorFolder(mirror: string, dir: string): string[] {
  mkdirSync(join(mirror, relative(ROOT, dir)), { recursive: true });
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (lstatSync(path).isDirectory()) return mirrorFolder(mirror, path);
    symlinkSync(path, join(mirror, relative(ROOT, path)));
    return TYPESCRIPT_SOURCE.test(name) ? [path] : [];
  });
}

/**
 * package.json as the checkout's, with npm scripts run in the checkout, and ava's configuration beside
 * it in ava.config.mjs (a function cannot be written in JSON): the checkout's, running the compiled
 * files, each test process timed by file-times.ts, in the order file-order.ts gives.
 */
function mirrorPackageJson(mirror: string): void {
  const { ava: checkoutAva, ...pkg } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; ava: Record<string, unknown> };
  const scripts = Object.fromEntries(Object.entries(pkg.scripts).map(([name, command]) => [name, `cd ${JSON.stringify(ROOT)} && ${command}`]));
  writeFileSync(join(mirror, 'package.json'), JSON.stringify({ ...pkg, scripts }, null, 2));
  const ava = { ...checkoutAva, extensions: ['js'], nodeArguments: [`--import=${pathToFileURL(join(mirror, 'test', 'helpers', 'file-times.js')).href}`], files: ['test/**/*.test.js'] };
  const config = `import { longestFirst } from './test/helpers/file-order.js';\nexport default { ...${JSON.stringify(ava)}, sortTestFiles: longestFirst(${JSON.stringify(mirror)}) };\n`;
  writeFileSync(join(mirror, 'ava.config.mjs'), config);
}

/**
 * Builds a mirror of the checkout in a new temporary folder and returns its path; the caller removes
 * it. One per run, so that runs at the same time (of one checkout or several) never share one.
 */
export async function buildMirror(): Promise<string> {
  const mirror = mkdtempSync(join(tmpdir(), 'sextant-suite-'));
  const sources: string[] = [];
  for (const name of readdirSync(ROOT)) {
    if (COMPILED.has(name)) sources.push(...mirrorFolder(mirror, join(ROOT, name)));
    else if (name !== 'package.json') symlinkSync(join(ROOT, name), join(mirror, name));
  }
  // The build a test makes (`npm run build`, in the checkout) lands in the checkout's dist, which a
  // fresh clone does not have yet when the mirror is made: linked anyway, it resolves once built.
  if (!readdirSync(ROOT).includes('dist')) symlinkSync(join(ROOT, 'dist'), join(mirror, 'dist'));
  mirrorPackageJson(mirror);
  await compileEach(sources, { outbase: ROOT, outdir: mirror });
  // Each test file then over its compiled copy, bundled (suite-bundle.ts says why); the per-file copies
  // stay for what is loaded by path (workers, child processes, fixtures read beside a module).
  await bundleTests(sources.filter((path) => TEST_FILE.test(relative(ROOT, path))), { root: ROOT, mirror });
  return mirror;
}
