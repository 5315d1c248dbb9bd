// The gateway's start-up chunk rewritten as a script, so that V8 can cache its compiled code between
// starts (run-script.ts). Node 20 caches no compiled ES module, and compiling the ~2.8 MB chunk (its
// top level, then each function the start calls) was about a fifth of a second start's CPU (issue 38).
// A script cannot import: esbuild bundles the chunk once more with each static import bound to a
// module namespace handed to the script as an argument, so named imports still read the exporting
// module's live binding, and each module is the one instance the other chunks import too. What the
// chunk imports dynamically is imported by the loader, relative to the script's own file as before.
import type { Plugin } from 'esbuild';

/** esbuild's options for a build kept in memory and written by the caller: one ES module file for Node 20, whitespace removed. */
export const IN_MEMORY_BUILD = { bundle: true, write: false, format: 'esm', platform: 'node', target: 'node20', minifyWhitespace: true } as const;

/** The argument holding the namespaces of the chunk's static imports, by specifier. */
const NAMESPACES = '__sextantNamespaces';
/** The argument holding the URL the chunk had (its `import.meta.url`). */
const META_URL = '__sextantMetaUrl';
/** The argument that imports for the script's `import()` (see below). */
const IMPORT = 'require';
/** Virtual modules: an import as ES module (named exports and default), and its namespace object as CommonJS. */
const IMPORTED = 'sextant-imported';
const NAMESPACE = 'sextant-namespace';

/** Binds each static import in `specifiers` to its namespace argument; dynamic ones stay outside (lowered below), others fail the build. */
function importsFromArgument(specifiers: readonly string[]): Plugin {
  return {
    name: 'imports-from-argument',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (a) => {
        if (a.kind === 'entry-point') return undefined;
        if (a.namespace === IMPORTED) return { path: a.path, namespace: NAMESPACE };
        if (a.kind === 'dynamic-import') return { path: a.path, external: true };
        if (a.kind === 'import-statement' && specifiers.includes(a.path)) return { path: a.path, namespace: IMPORTED };
        return { errors: [{ text: `${a.path}: a ${a.kind} that the script form cannot bind` }] };
      });
      // `export *` from a CommonJS module re-exports through getters, so importers see live bindings.
      b.onLoad({ filter: /.*/, namespace: IMPORTED }, (a) => ({ contents: `export * from ${JSON.stringify(a.path)};\nexport default ${NAMESPACES}[${JSON.stringify(a.path)}].default;`, loader: 'js' }));
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (a) => ({ contents: `module.exports = ${NAMESPACES}[${JSON.stringify(a.path)}];`, loader: 'js' }));
    },
  };
}

/**
 * The ES module `text` (a chunk that exports nothing, whose static imports are `specifiers`) as the
 * source of an async function of the imports' namespaces, the chunk's URL and the function its
 * `import()` calls, run by `runScript`.
 */
export async function scriptForm(text: string, specifiers: readonly string[]): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents: text, loader: 'js', sourcefile: 'start-up chunk' },
    ...IN_MEMORY_BUILD,
    // The chunk's own build reported its warnings already.
    logLevel: 'error',
    define: { 'import.meta.url': META_URL },
    // V8 drops what a script's `import()` needs when it compiles the script from its cache (Node 20:
    // "A dynamic import callback was not specified"), so the script has none: esbuild writes each as
    // `Promise.resolve().then(() => __toESM(require(specifier)))`, through its helper that calls the
    // free `require`, which is the script's argument (the chunk's own `require` is renamed away).
    supported: { 'dynamic-import': false },
    plugins: [importsFromArgument(specifiers)],
  });
  const [output] = result.outputFiles;
  if (!output || result.outputFiles.length !== 1) throw new Error('the script form is one file');
  // Strict, as the module was; its top-level await becomes the function's.
  return `(async function (${NAMESPACES}, ${META_URL}, ${IMPORT}) {"use strict";${output.text}\n})`;
}

/** The ES module that imports `specifiers` (in that order, as the chunk did) and exports their namespaces by specifier. */
export function namespacesModule(specifiers: readonly string[]): string {
  const imports = specifiers.map((s, i) => `import * as n${i} from ${JSON.stringify(s)};`).join('\n');
  return `${imports}\nexport const namespaces = { ${specifiers.map((s, i) => `${JSON.stringify(s)}: n${i}`).join(', ')} };\n`;
}
