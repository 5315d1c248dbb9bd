// The build's and the compiled suite's compiler: each TypeScript file becomes a JavaScript file at the
// same place, relative `.ts` imports become `.js`, packages and JSON (with its import attribute) stay
// as written, and a module's import.meta.url is its own file's, so paths resolved from it hold as in
// the sources.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileEach } from '../../src/distribution/compile.ts';

test('each file compiles in place with its imports rewritten to .js, and runs with plain Node', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-compile-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const src = join(root, 'src');
  mkdirSync(join(src, 'deep'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module', version: '9.9.9' }));
  writeFileSync(join(src, 'deep', 'where.ts'), "export const here: string = new URL('../../package.json', import.meta.url).pathname;\nexport class Named {}\n");
  writeFileSync(
    join(src, 'main.ts'),
    [
      "import { readFileSync } from 'node:fs';",
      "import type { Named as T } from './deep/where.ts';",
      "import { here, Named } from './deep/where.ts';",
      "import pkg from '../package.json' with { type: 'json' };",
      'const n: T = new Named();',
      "const { version } = JSON.parse(readFileSync(here, 'utf8')) as { version: string };",
      'console.log(version, n.constructor.name, pkg.version);',
    ].join('\n'),
  );
  await compileEach([join(src, 'main.ts'), join(src, 'deep', 'where.ts')], { outbase: src, outdir: join(root, 'dist') });
  const main = readFileSync(join(root, 'dist', 'main.js'), 'utf8');
  t.regex(main, /from "\.\/deep\/where\.js"/);
  t.regex(main, /from "node:fs"/);
  t.regex(main, /from "\.\.\/package\.json" with \{ type: "json" \}/, 'a JSON import keeps its attribute, without which Node refuses it');
  t.is(execFileSync(process.execPath, [join(root, 'dist', 'main.js')], { encoding: 'utf8' }).trim(), '9.9.9 Named 9.9.9');
});
