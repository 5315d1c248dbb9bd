// The suite's test files bundled into the mirror (suite-mirror.ts), over their per-file compiled
// copies: one esbuild build with every test file an entry and the modules they share split into
// chunks, so that each module is still loaded once per process. Loading the harness from ~1,500
// files cost each test process ~1.15 s of CPU (a --cpu-prof: Node's loader resolving, opening,
// compiling and linking file after file, not the modules' own code), 364 times in a run. A module's
// `import.meta.url` (and `dirname`) is rewritten to its per-file compiled file's in the mirror, as
// the gateway's bundle does for dist (src/distribution/bundle.ts), so migrations, fixtures, workers
// and child processes resolve as before, whichever chunk the module lands in.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import type { Plugin } from 'esbuild';
import { BUNDLED_PACKAGES, NATIVE_PACKAGES } from '../../src/distribution/bundle.ts';

/** Stands for the way from an output file up to the mirror's root until the output's place is known. */
const TO_ROOT = '__sextant_to_root__/';
const OWN_URL = '__sextantOwnUrl';
const OWN_DIR = '__sextantOwnDir';

/** Rewrites each checkout module's `import.meta.url` and `import.meta.dirname` to its compiled file's in the mirror. */
function importMetaInPlace(root: string, transform: typeof import('esbuild').transform): Plugin {
  return {
    name: 'import-meta-in-place',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, async (a) => {
        const text = readFileSync(a.path, 'utf8');
        if (!a.path.startsWith(root + sep) || a.path.includes(`${sep}node_modules${sep}`) || !text.includes('import.meta')) return undefined;
        const own = relative(root, a.path).split(sep).join('/').replace(/\.tsx?$/, '.js');
        const loader = a.path.endsWith('x') ? 'tsx' : 'ts';
        const { code } = await transform(text, { loader, format: 'esm', target: 'node20', keepNames: true, sourcefile: a.path, tsconfigRaw: readFileSync(`${root}/tsconfig.json`, 'utf8'), define: { 'import.meta.url': OWN_URL, 'import.meta.dirname': OWN_DIR } });
        const header = `const ${OWN_URL} = new URL(${JSON.stringify(TO_ROOT + own)}, import.meta.url).href;\nconst ${OWN_DIR} = __sextantDirname(__sextantPath(${OWN_URL}));\n`;
        return { contents: `import { dirname as __sextantDirname } from 'node:path';\nimport { fileURLToPath as __sextantPath } from 'node:url';\n${header}${code}`, loader: 'js' };
      });
    },
  };
}

/** A bundled CommonJS package requires Node's own modules through this. */
export const REQUIRE_BANNER = { js: "import { createRequire as __sextantCreateRequire } from 'node:module';\nconst require = __sextantCreateRequire(import.meta.url);" };

/**
 * Bundles the checkout's modules and BUNDLED_PACKAGES (with their own dependencies but NATIVE_PACKAGES ones);
 * every other package loads from node_modules. With REQUIRE_BANNER.
 */
export function packagesOutside(): Plugin {
  return {
    name: 'packages-outside',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (a) => {
        if (a.kind === 'entry-point' || /^node:/.test(a.path)) return undefined;
        // The checkout's own modules, wherever they are found from (a mirror links to them).
        const fromCheckout = !a.importer.includes(`${sep}node_modules${sep}`);
        const outside = fromCheckout ? !BUNDLED_PACKAGES.test(a.path) : NATIVE_PACKAGES.test(a.path);
        return outside ? { path: a.path, external: true } : undefined;
      });
    },
  };
}

/** Bundles `tests` (absolute paths under `root`) over their compiled copies in `mirror`, shared modules in `mirror/_chunks`. */
export async function bundleTests(tests: string[], { root, mirror }: { root: string; mirror: string }): Promise<void> {
  const { build, transform } = await import('esbuild');
  const result = await build({
    entryPoints: tests,
    outbase: root,
    outdir: mirror,
    bundle: true,
    splitting: true,
    chunkNames: '_chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    keepNames: true,
    minifyWhitespace: true,
    write: false,
    logLevel: 'warning',
    banner: REQUIRE_BANNER,
    plugins: [packagesOutside(), importMetaInPlace(root, transform)],
  });
  for (const file of result.outputFiles) {
    const up = relative(dirname(file.path), mirror).split(sep).join('/');
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.text.replaceAll(TO_ROOT, up === '' ? './' : `${up}/`));
  }
}
