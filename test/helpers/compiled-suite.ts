// `npm run test:unit`: ava over the suite compiled into a mirror of the checkout (suite-mirror.ts says
// why). Test files are named as in the checkout: `npm run test:unit -- test/x.test.ts`. At the end, the
// slowest test files by CPU (file-times.ts times each test process), where the suite's time goes.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { TYPESCRIPT_SOURCE } from '../../src/distribution/compile.ts';
import { bundleAvaWorker } from './ava-worker.ts';
import { keepTimes } from './file-order.ts';
import { buildMirror, ROOT } from './suite-mirror.ts';

/** How many of the slowest test files are named at the end. */
const SLOWEST = 15;

/** A test file named as in the checkout (`test/x.test.ts`), as ava finds it in the mirror. */
const asCompiled = (arg: string): string => (TYPESCRIPT_SOURCE.test(arg) ? relative(ROOT, resolve(arg)).replace(TYPESCRIPT_SOURCE, '.js') : arg);

/** The slowest test files of the run, by CPU, with the run's totals: printed after ava's report. */
function slowestFiles(times: string, mirror: string): string {
  if (!existsSync(times)) return '';
  const rows = readFileSync(times, 'utf8').trim().split('\n').map((line) => line.split('\t')).map(([cpu, wall, file]) => ({ cpu: Number(cpu), wall: Number(wall), file: relative(mirror, file!.replace(/^file:\/\//, '')) }));
  if (rows.length < 2) return '';
  const total = rows.reduce((sum, r) => sum + r.cpu, 0);
  const lines = rows.sort((a, b) => b.cpu - a.cpu).slice(0, SLOWEST).map((r) => `${(r.cpu / 1000).toFixed(1).padStart(7)} s CPU ${(r.wall / 1000).toFixed(1).padStart(7)} s wall  ${r.file}`);
  return `\nslowest test files (of ${rows.length}, ${(total / 1000).toFixed(0)} s of CPU in all):\n${lines.join('\n')}\n`;
}

const mirror = await buildMirror();
// Only a run of the whole suite, with nothing narrowing it, sets the next run's order (file-order.ts).
const wholeSuite = process.argv.length === 2;
const times = join(mirror, 'file-times.tsv');
// ava's command line, forking its worker bundled (ava-worker.ts says why).
const ava = await bundleAvaWorker(ROOT, mirror);
// A host's extra certificate bundle (NODE_EXTRA_CA_CERTS; this machine names the system's 144 roots) is
// parsed by every Node process as it starts, ~50 ms of CPU each, and the suite starts a process for every
// test file, gateway, query process and CLI run. No test reaches past loopback, and the tests of TLS
// bring their own certificates, so the suite's processes go without it.
const { NODE_EXTRA_CA_CERTS: _hostCertificates, ...env } = process.env;
const child = spawn(process.execPath, [ava, ...process.argv.slice(2).map(asCompiled)], { cwd: mirror, stdio: 'inherit', env: { ...env, SEXTANT_FILE_TIMES: times } });
child.on('exit', (code, signal) => {
  process.stdout.write(slowestFiles(times, mirror));
  if (wholeSuite && existsSync(times)) keepTimes(times, mirror);
  rmSync(mirror, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
