// Runs the gateway's start-up chunk in its script form (script-form.ts) with V8's code cache: the code
// compiled by one start (the chunk's top level and every function the start called) is written next to
// the script once the start is done, and the next start deserializes it instead of compiling again.
// The cache is named for the script (whose name carries its content's hash) and the Node version and
// architecture; V8 itself refuses a cache of another V8, other flags or another source length. A
// missing, unreadable or refused cache only means compiling as without one, and writing a new one.
import { accessSync, closeSync, constants, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { asAtStartUp } from './start-up-heap.ts';

/** The code cache file of `scriptPath` for this Node. */
function cachePathOf(scriptPath: string): string {
  return `${scriptPath}.${process.version}-${process.arch}.cache`;
}

/** The cache's bytes, or undefined when there is none to read. */
function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Whether this process may create files in `dir` (a container's dist belongs to root, its server does not). */
function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the cache as the house writes files that must never be seen torn (a temporary file, fsync,
 * rename): V8 checks a cache's header and length, not every byte. A dist that cannot be written (a
 * read-only image) keeps every start compiling, as before.
 */
function writeCache(path: string, data: Buffer): void {
  const part = `${path}.${process.pid}.part`;
  try {
    const fd = openSync(part, 'w');
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(part, path);
  } catch {
    try {
      unlinkSync(part);
    } catch {
      // Nothing was written.
    }
  }
}

/**
 * What the script calls for each `import(specifier)` (script-form.ts): a thenable, so that the promise
 * esbuild's helper resolves with it (`__toESM` copies its own properties) takes on the import's
 * outcome. Relative specifiers are resolved from the script's file; packages from dist, as from it.
 */
function importFrom(script: URL): (specifier: unknown) => { __esModule: true; then: PromiseLike<unknown>['then'] } {
  return (specifier) => {
    const s = String(specifier);
    const target = s.startsWith('./') || s.startsWith('../') ? new URL(s, script).href : s;
    return { __esModule: true, then: (resolve, reject) => import(target).then(resolve, reject) };
  };
}

/**
 * Runs the script at `script` (script-form.ts) with the namespaces that the module at `imports`
 * exports, from V8's code cache when there is one it accepts; writes the cache when there was none.
 */
export async function runScript({ script, imports }: { script: URL; imports: URL }): Promise<void> {
  const path = fileURLToPath(script);
  const cachePath = cachePathOf(path);
  // Compiled before the imports load: the parser's memory, once freed, is reused by theirs rather than
  // left above them (3 MB of RSS when compiling without a cache).
  let cachedData = readCache(cachePath);
  // Read as latin1, a plain copy: the build writes the script ASCII only (bundle.ts), where decoding
  // UTF-8 took 4 ms more of CPU.
  const compiled = new vm.Script(readFileSync(path, 'latin1'), { filename: path, cachedData });
  const fromCache = cachedData !== undefined && !compiled.cachedDataRejected;
  cachedData = undefined;
  const { namespaces } = (await import(imports.href)) as { namespaces: Record<string, unknown> };
  const run = compiled.runInThisContext() as (namespaces: Record<string, unknown>, metaUrl: string, require: ReturnType<typeof importFrom>) => Promise<void>;
  await run(namespaces, script.href, importFrom(script));
  // Serializing takes CPU and a few MB: not for a cache that cannot be written.
  if (!fromCache && writable(dirname(cachePath))) writeCache(cachePath, asAtStartUp(() => compiled.createCachedData()));
}
