// The web client as the browser tests and benches serve it: built once per version of web/ into a
// cache folder of its own (never dist/web, which `npm run build` may be rewriting meanwhile). Test
// files running at the same time share one build through a lock folder.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { HANG_MS } from './patience.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const WEB = join(ROOT, 'web');
const CACHE = join(ROOT, 'node_modules', '.cache', 'sextant-web');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'openapi.d.ts') return [];
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** A hash of everything the build reads: web sources, the lock file (library versions). */
function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of [...files(WEB), join(ROOT, 'package-lock.json')].sort()) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** The folder of a build of the current web sources, building it if needed. */
export async function webBuild(): Promise<string> {
  const out = join(CACHE, sourceHash());
  if (existsSync(join(out, 'index.html'))) return out;
  mkdirSync(CACHE, { recursive: true });
  const lock = `${out}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      if (existsSync(join(out, 'index.html'))) return out;
      // A build that died (kill -9) leaves its lock: taken over once its process is gone, never for
      // being slow (a busy machine may take minutes to build).
      if (holderGone(lock)) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (existsSync(join(out, 'index.html'))) return out;
    const tmp = `${out}.tmp-${process.pid}`;
    const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    // NODE_ENV from the test runner would make Vite bundle React's development build.
    await promisify(execFile)(process.execPath, [vite, 'build', '--config', join(WEB, 'vite.config.ts'), '--outDir', tmp, '--emptyOutDir', '--logLevel', 'error'], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' } });
    renameSync(tmp, out);
    return out;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Whether the process that took the lock has ended (a lock just taken, its pid not yet written, is held). */
function holderGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // No pid for long: a lock of an older helper, or its holder died between taking it and writing it.
    return Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > HANG_MS;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
