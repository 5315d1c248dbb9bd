// Preloaded into each of ava's test processes by the compiled suite (suite-mirror.ts): when the process
// ends, appends its test file, CPU (its reaped children's included) and wall time to the file SEXTANT_FILE_TIMES names, so that
// compiled-suite.ts can name the slowest test files (issue 38: the suite's time, file by file).
import { appendFileSync, readFileSync } from 'node:fs';

const out = process.env['SEXTANT_FILE_TIMES'];
let file: string | undefined;

/** CPU time (ms) of the processes this one started and has reaped (servers, query processes, builds), from /proc (Linux). */
function reapedChildrenCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/** ava sends the worker its options, test file included, once over IPC. */
function onMessage(message: unknown): void {
  const ava = (message as { ava?: { type?: string; options?: { file?: string } } } | null)?.ava;
  if (ava?.type !== 'options') return;
  file = ava.options?.file;
  // The listener holds the IPC channel open; ava's own decide when the process may end.
  process.off('message', onMessage);
}

// Only in ava's own test processes: processes a test forks inherit the preload with Node's arguments.
const avaWorker = /[/\\]ava[/\\]lib[/\\]worker[/\\]/.test(process.argv[1] ?? '');

if (out && process.send && avaWorker) {
  process.on('message', onMessage);
  process.on('exit', () => {
    if (!file) return;
    const cpu = process.cpuUsage();
    appendFileSync(out, `${Math.round((cpu.user + cpu.system) / 1000) + reapedChildrenCpuMs()}\t${Math.round(performance.now())}\t${file}\n`);
  });
}
