// TypeScript compiled file by file into JavaScript of the same layout, as `tsc` with
// rewriteRelativeImportExtensions emits it, in about a second with esbuild (the compiler tsx
// already uses) where tsc took ~10 s of CPU: the server's build (dist) and the test suite's
// compiled copy. Each module keeps its own file, so its `import.meta.url` and the paths it
// resolves from it stay as in the sources.
import type { Plugin } from 'esbuild';

/** A TypeScript source file (not a declaration file). */
export const TYPESCRIPT_SOURCE = /(?<!\.d)\.tsx?$/;

/** Keeps every import as it is written except a relative `.ts`/`.tsx`, which becomes its `.js`. */
const importsAsWritten: Plugin = {
  name: 'imports-as-written',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => {
      if (a.kind === 'entry-point') return undefined;
      const relativeSource = a.path.startsWith('.') && TYPESCRIPT_SOURCE.test(a.path);
      return { path: relativeSource ? a.path.replace(TYPESCRIPT_SOURCE, '.js') : a.path, external: true };
    });
  },
};

/** Compiles `files` (absolute paths under `outbase`) to `.js` files at the same places under `outdir`. */
export async function compileEach(files: string[], { outbase, outdir }: { outbase: string; outdir: string }): Promise<void> {
  const { build } = await import('esbuild');
  // bundle with every import external compiles each file on its own and lets the plugin rewrite
  // the extensions (esbuild's plain transform keeps `.ts` specifiers). keepNames as tsx does, so
  // that a class or function name read at run time is the one written.
  await build({
    entryPoints: files,
    outbase,
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    // package.json's engines floor: at plain node20 esbuild drops import attributes, and Node then
    // refuses a JSON import without its `with { type: 'json' }` (the CLI reads its version so).
    target: 'node20.19',
    keepNames: true,
    logLevel: 'warning',
    plugins: [importsAsWritten],
  });
}
