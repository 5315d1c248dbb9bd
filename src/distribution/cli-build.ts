// The self-contained build of the command-line tool: one ESM file bundling the CLI and its
// dependencies (esbuild: the bundler tsx already uses), runnable with Node.js 20 or later.

/** Platforms offered for download. The bundle is plain JavaScript, so one build serves every OS. */
export const CLI_PLATFORMS = ['node'] as const;

/** Bundles src/cli into a single file; the caller caches it. */
export async function buildCliBundle(): Promise<Buffer> {
  // Loaded with the first download of the CLI, not by every gateway.
  const { build } = await import('esbuild');
  const result = await build({
    // Bundled from the sources, also when the gateway runs from the compiled build (dist).
    entryPoints: [new URL('../../src/cli/run.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    minify: true,
    legalComments: 'none',
    // commander is CommonJS: give the bundle a `require` for Node's built-in modules.
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __sextantRequire } from 'node:module';\nconst require = __sextantRequire(import.meta.url);" },
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output');
  return Buffer.from(file.contents);
}
