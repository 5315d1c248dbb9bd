// The gateway's start-up bundle: `src/main.ts`, the service's own modules and the pure-JavaScript
// packages every start loads, bundled by esbuild into dist/main.js and a few chunks (one per group of
// modules first loaded by a dynamic import, so what loads on first use still does). The per-file build
// gave Node ~1,500 files to resolve, read, compile and link at every start (the service's ~570,
// kysely's 263, ...). Other packages load from node_modules as written. A bundled module's
// `import.meta.url` is rewritten to the URL its own compiled file has in dist (dist/<path under
// src>.js), so the paths it resolves from it (package.json, migrations, fixtures, dist/web,
// createRequire) are those of the per-file build, whichever output file the module lands in. The
// start-up chunk is written as a script (script-form.ts) that dist/main.js runs with V8's code cache
// (run-script.ts); the chunks loaded on first use stay modules.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile, Plugin } from 'esbuild';
import { IN_MEMORY_BUILD, namespacesModule, scriptForm } from './script-form.ts';

/** The loader the built entry runs its start-up chunk with. */
const RUN_SCRIPT = fileURLToPath(new URL('./run-script.ts', import.meta.url));
/** Stands for the way from an output file up to dist until the output's place is known. */
const TO_DIST = '__sextant_to_dist__/';
/** The module's own URL, declared at the top of each module that reads import.meta.url. */
const OWN_URL = '__sextantOwnUrl';

/**
 * Packages bundled with the service: those every start loads, of many small modules (kysely 263,
 * yaml 73, semver 47 through jsonwebtoken, rate-limiter-flexible 37, prom-client 33 and
 * @opentelemetry/api 44 through it, Koa's ~60), plain JavaScript that resolves no file from its own
 * location, and which no package left outside shares objects with. zod stays outside: the MCP SDK
 * and the model SDKs take the service's schemas and check them with their own copy.
 */
export const BUNDLED_PACKAGES =
  /^(kysely|yaml|koa|@koa\/router|@koa\/cors|koa-mount|jsonwebtoken|prom-client|rate-limiter-flexible|diff|diff3|isomorphic-git|otplib|proper-lockfile|csv-stringify|ipaddr\.js|request-filtering-agent|croner|ulid|escape-html|fastest-levenshtein|yazl|yauzl|bcryptjs)(\/|$)/;
/** Packages with native parts or files of their own, loaded from node_modules even when a bundled package imports them. */
export const NATIVE_PACKAGES = /^(better-sqlite3|bindings|@duckdb\/|libpg-query|@resvg\/|pino|thread-stream)(\/|$)/;

/**
 * Rewrites each source's `import.meta.url` to its compiled file's URL in dist (through esbuild's
 * define, which replaces the expression and leaves strings alone); refuses other `import.meta` uses.
 */
function importMetaInPlace(srcDir: string, transform: typeof import('esbuild').transform): Plugin {
  return {
    name: 'import-meta-in-place',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, async (a) => {
        const text = readFileSync(a.path, 'utf8');
        if (!a.path.startsWith(srcDir + sep) || !text.includes('import.meta')) return undefined;
        const own = relative(srcDir, a.path).split(sep).join('/').replace(/\.tsx?$/, '.js');
        if (/import\.meta(?!\.url)/.test(text)) return { errors: [{ text: `${own}: only import.meta.url can be bundled` }] };
        const loader = a.path.endsWith('x') ? 'tsx' : 'ts';
        const { code } = await transform(text, { loader, format: 'esm', target: 'node20', keepNames: true, sourcefile: a.path, define: { 'import.meta.url': OWN_URL } });
        return { contents: `const ${OWN_URL} = new URL(${JSON.stringify(TO_DIST + own)}, import.meta.url).href;\n${code}`, loader: 'js' };
      });
    },
  };
}

/**
 * Leaves every package the service imports outside the bundle except BUNDLED_PACKAGES, whose own
 * dependencies come with them (so that a nested node_modules copy is the one used), but for NATIVE_PACKAGES.
 */
function packagesOutside(srcDir: string, bundled: RegExp): Plugin {
  return {
    name: 'packages-outside',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (a) => {
        if (a.kind === 'entry-point' || /^node:/.test(a.path)) return undefined;
        const fromService = a.importer.startsWith(srcDir + sep);
        const outside = fromService ? !bundled.test(a.path) : NATIVE_PACKAGES.test(a.path);
        return outside ? { path: a.path, external: true } : undefined;
      });
    },
  };
}

/**
 * The text with every character outside ASCII written as a `\\uXXXX` escape (valid in strings,
 * templates, regular expressions, identifiers and comments alike; one that was escaped already loses
 * its backslash, as `\\é` and `\\u00e9` mean the same). V8 keeps a module's source for compiling its
 * functions when first called: one character outside ASCII (a regular expression's range, a comment)
 * makes it a two-byte string, double the memory of the megabytes of the bundle.
 */
export function asciiOnly(text: string): string {
  return text.replace(/(\\*)([^\0-\x7f])/g, (_, slashes: string, c: string) => `${slashes.slice(slashes.length % 2)}\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What one build writes: the file's path under `outdir` and its text. */
type Output = { file: string; text: string };

/**
 * The entry chunk as a script with the module of its imports (script-form.ts), and `out`.js, the loader
 * that runs it (run-script.ts). Nothing may import the entry chunk: it would be a second instance.
 */
async function startUpAsScript(entryChunk: Output, outputs: Output[], metafile: Metafile, outdir: string, out: string): Promise<Output[]> {
  const inMeta = (file: string) => relative(process.cwd(), join(outdir, file)).split(sep).join('/');
  const chunkDir = dirname(join(outdir, entryChunk.file));
  const importers = Object.entries(metafile.outputs).filter(([, o]) => o.imports.some((i) => i.path === inMeta(entryChunk.file)));
  if (importers.length > 0) throw new Error(`${importers.map(([f]) => f).join(', ')} import the start-up chunk`);
  // In the order the chunk imports them (each module is evaluated at its first import), once each;
  // the banner's import first, which esbuild does not list.
  const imported = metafile.outputs[inMeta(entryChunk.file)]!.imports
    .filter((i) => i.kind === 'import-statement')
    .map((i) => (i.external ? i.path : `./${relative(chunkDir, resolve(i.path)).split(sep).join('/')}`));
  const specifiers = [...new Set(['node:module', ...imported])];
  // Named for the script's own content: its code cache is named for the script, and V8 checks no more
  // of a cache's source than its length.
  const text = await scriptForm(entryChunk.text, specifiers);
  const base = join(dirname(entryChunk.file), `${out}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`);
  const script = { file: `${base}.script.js`, text };
  const imports = { file: `${base}.imports.js`, text: namespacesModule(specifiers) };
  const { build } = await import('esbuild');
  const toChunk = (o: Output) => `./${o.file.split(sep).join('/')}`;
  const loader = await build({
    stdin: {
      contents: `import { runScript } from ${JSON.stringify(RUN_SCRIPT)};\nawait runScript({ script: new URL(${JSON.stringify(toChunk(script))}, import.meta.url), imports: new URL(${JSON.stringify(toChunk(imports))}, import.meta.url) });`,
      resolveDir: dirname(RUN_SCRIPT),
      sourcefile: `${out}.js`,
    },
    ...IN_MEMORY_BUILD,
    logLevel: 'warning',
  });
  return [...outputs.filter((o) => o !== entryChunk), script, imports, { file: `${out}.js`, text: loader.outputFiles[0]!.text }];
}

/**
 * Bundles `entry` (a file under `srcDir`) into `outdir`/chunks, its start-up chunk as a script that
 * `outdir`/`out`.js runs with V8's code cache (run-script.ts), and the chunks it loads on first use as
 * modules (chunks of earlier builds removed, but for a cache of a script still written). Gives the
 * files written, relative to `outdir`.
 */
export async function bundleEntry({ entry, out, srcDir, outdir }: { entry: string; out: string; srcDir: string; outdir: string }): Promise<string[]> {
  const { build, transform } = await import('esbuild');
  const result = await build({
    entryPoints: [{ in: entry, out }],
    outdir,
    bundle: true,
    splitting: true,
    entryNames: 'chunks/[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // As tsx and the per-file build do: a class or function name read at run time is the one written.
    keepNames: true,
    // Without comments and indentation: V8 keeps each module's source (its functions compile when
    // first called), 2.8 MB for main.js where 3.9 MB with them.
    minifyWhitespace: true,
    write: false,
    metafile: true,
    logLevel: 'warning',
    // A bundled CommonJS package requires Node's own modules through this.
    banner: { js: "import { createRequire as __sextantCreateRequire } from 'node:module';\nconst require = __sextantCreateRequire(import.meta.url);" },
    plugins: [packagesOutside(srcDir, BUNDLED_PACKAGES), importMetaInPlace(srcDir, transform)],
  });
  const outputs = result.outputFiles.map((file) => {
    const up = relative(dirname(file.path), outdir).split(sep).join('/');
    return { file: relative(outdir, file.path), text: file.text.replaceAll(TO_DIST, up === '' ? './' : `${up}/`) };
  });
  // Each chunk loaded on first use is an entry point of esbuild's too.
  const entryFile = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint !== undefined && resolve(o.entryPoint) === resolve(entry))![0];
  const entryChunk = outputs.find((o) => resolve(outdir, o.file) === resolve(entryFile))!;
  const files = await startUpAsScript(entryChunk, outputs, result.metafile, outdir, out);
  const written = files.map(({ file, text }) => {
    const path = join(outdir, file);
    mkdirSync(dirname(path), { recursive: true });
    // Gateways may be running from dist while it is built again (tests build beside running ones): each
    // file is replaced whole, and a chunk of the same content keeps its name, so theirs stay in place.
    writeFileSync(`${path}.${process.pid}.part`, asciiOnly(text));
    renameSync(`${path}.${process.pid}.part`, path);
    return file;
  });
  const chunks = join(outdir, 'chunks');
  mkdirSync(chunks, { recursive: true });
  const kept = (f: string) => written.includes(`chunks${sep}${f}`) || f.endsWith('.part') || written.some((w) => f.startsWith(`${basename(w)}.`) && f.endsWith('.cache'));
  for (const stale of readdirSync(chunks).filter((f) => !kept(f))) rmSync(join(chunks, stale), { force: true });
  return written;
}
