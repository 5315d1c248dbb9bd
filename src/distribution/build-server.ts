// `npm run build`'s server half: src compiled into dist with the same folder depth, so paths resolved
// from import.meta.url (package.json, fixtures, docs, migrations) hold in both; then dist/main.js, the
// gateway's entry, replaced by its bundle (bundle.ts), which starts in about half the CPU. The other
// entries (sextant-admin, the query processes) run the per-file build. Type errors are `npm test`'s job
// (tsc --noEmit); the build only emits.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bundleEntry } from './bundle.ts';
import { compileEach, TYPESCRIPT_SOURCE } from './compile.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

const sources = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => TYPESCRIPT_SOURCE.test(f)).map((f) => join(SRC, f));
await compileEach(sources, { outbase: SRC, outdir: DIST });
await bundleEntry({ entry: join(SRC, 'main.ts'), out: 'main', srcDir: SRC, outdir: DIST });
