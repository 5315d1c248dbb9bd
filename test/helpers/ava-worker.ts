// ava's test process, bundled. Each test file runs in a process of its own that first loads ava's
// worker: ~150 CommonJS and ES modules from node_modules (its runner, assertions, concordance, chalk),
// each resolved, read and compiled on its own. A CPU profile of a file with two trivial tests put
// ~0.45 s of its ~1 s in Node's module loader (CommonJS resolution, package.json reads, the CommonJS
// lexer), 405 times a run. Bundled into one file, the worker loads in one read and one compile:
// such a file took 0.3 s of CPU against 0.5 s (three alternated runs of four files each).
//
// ava's own worker modules that a test file's `import test from 'ava'` also loads (the runner it
// registers with, the completion handlers, the IPC channel) stay outside the bundle, loaded from
// node_modules as before, so that both sides share them. ava forks the bundle through
// `_testOnlyReplaceWorkerPath`, exported by its lib/fork.js for its own tests; where a version of ava
// lacks it, ava runs its own worker.
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { REQUIRE_BANNER } from './suite-bundle.ts';

/** Leaves ava's lib/worker modules other than the entry outside the bundle, by absolute path. */
function sharedWorkerModules(workerDir: string): Plugin {
  return {
    name: 'shared-worker-modules',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (a) => {
        const path = resolve(a.resolveDir, a.path);
        return a.kind !== 'entry-point' && dirname(path) === workerDir && path !== join(workerDir, 'base.js') ? { path, external: true } : undefined;
      });
    },
  };
}

/**
 * Bundles ava's worker into `mirror` (under a path that still names `ava/lib/worker/`, which
 * file-times.ts looks for) and returns the module that runs ava's command line with it.
 */
export async function bundleAvaWorker(root: string, mirror: string): Promise<string> {
  const { build } = await import('esbuild');
  const workerDir = join(root, 'node_modules', 'ava', 'lib', 'worker');
  const worker = join(mirror, '_bundled', 'ava', 'lib', 'worker', 'base.js');
  await build({
    entryPoints: [join(workerDir, 'base.js')],
    outfile: worker,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    keepNames: true,
    minifyWhitespace: true,
    logLevel: 'warning',
    banner: REQUIRE_BANNER,
    plugins: [sharedWorkerModules(workerDir)],
  });
  const avaUrl = (path: string) => JSON.stringify(pathToFileURL(join(root, 'node_modules', 'ava', path)).href);
  const launcher = join(mirror, '_bundled', 'ava-cli.mjs');
  writeFileSync(
    launcher,
    `const fork = await import(${avaUrl('lib/fork.js')});\n` +
      `fork._testOnlyReplaceWorkerPath?.(new URL(${JSON.stringify(pathToFileURL(worker).href)}));\n` +
      `await import(${avaUrl('entrypoints/cli.mjs')});\n`,
  );
  return launcher;
}
