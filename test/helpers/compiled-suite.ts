// `npm run test:unit`: ava over the suite compiled into a mirror of the checkout (suite-mirror.ts says
// why). Test files are named as in the checkout: `npm run test:unit -- test/x.test.ts`.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { TYPESCRIPT_SOURCE } from '../../src/distribution/compile.ts';
import { buildMirror, ROOT } from './suite-mirror.ts';

/** A test file named as in the checkout (`test/x.test.ts`), as ava finds it in the mirror. */
const asCompiled = (arg: string): string => (TYPESCRIPT_SOURCE.test(arg) ? relative(ROOT, resolve(arg)).replace(TYPESCRIPT_SOURCE, '.js') : arg);

const mirror = await buildMirror();
const ava = join(ROOT, 'node_modules', 'ava', 'entrypoints', 'cli.mjs');
const child = spawn(process.execPath, [ava, ...process.argv.slice(2).map(asCompiled)], { cwd: mirror, stdio: 'inherit' });
child.on('exit', (code, signal) => {
  rmSync(mirror, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
