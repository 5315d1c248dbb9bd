// Which script a query process runs. The build runs process-main.js with plain Node. The sources
// (tests, `npm run dev`) would need tsx in every process, which costs ~300 ms and 40 MB per start,
// so there process-main.ts is bundled once with esbuild into a CommonJS file named after its content
// (the engines stay outside, required by absolute path, and load only when a session needs them).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const ENGINES = /^(better-sqlite3|@duckdb\/node-api)$/;

let entry: Promise<string> | undefined;

/** The path of the script to start (built from the sources on first use, and again if it was removed since). */
export async function processEntry(): Promise<string> {
  if (extname(here) !== '.ts') return join(dirname(here), 'process-main.js');
  const file = await (entry ??= bundle());
  if (existsSync(file)) return file;
  entry = undefined;
  return (entry ??= bundle());
}

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const require = createRequire(import.meta.url);
  const out = await build({
    entryPoints: [join(dirname(here), 'process-main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    plugins: [{ name: 'engines-by-path', setup: (b) => void b.onResolve({ filter: ENGINES }, (a) => ({ path: require.resolve(a.path), external: true })) }],
  });
  const code = out.outputFiles[0]!.contents;
  const file = join(tmpdir(), `sextant-query-process-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.cjs`);
  if (!existsSync(file)) {
    // Several test processes may build at once: each writes its own file and renames it into place.
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, code);
    renameSync(part, file);
  }
  return file;
}
