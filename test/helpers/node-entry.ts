// Node's arguments for running a module of the checkout in a process of its own. The compiled suite
// (compiled-suite.ts) puts a compiled copy beside each TypeScript source in its mirror: a process runs
// that copy, as the test that started it runs compiled code. Through tsx the same start cost ~1.3 s
// more CPU for the gateway's modules (2.4 s against 1.1 s: its hooks compile and resolve each file),
// at every start of a gateway, a writer or a script in the tests that need a process of their own.
// Outside the mirror (`npx ava test/x.test.ts`) a source runs through tsx, as before.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { TYPESCRIPT_SOURCE } from '../../src/distribution/compile.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/** `node`'s arguments for `path` (absolute, or relative to the checkout or its mirror): its compiled copy, else through tsx. */
export function nodeEntry(path: string): string[] {
  const source = isAbsolute(path) ? path : join(ROOT, path);
  if (!TYPESCRIPT_SOURCE.test(source)) return [source];
  const compiled = source.replace(TYPESCRIPT_SOURCE, '.js');
  return existsSync(compiled) ? [compiled] : ['--import=tsx', source];
}
