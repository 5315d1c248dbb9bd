// `npm test`: the type check and the lint beside the tests instead of before them. The tests leave
// the cores idle whenever they wait (on a process, a database, a browser, a timer), and the checks
// (~1.5 minutes of CPU, one core each) fill that time: niced, so that a test's own work comes first.
// Their output is held until the tests end, so that ava's report stays in one piece for whoever
// reads its summary (CI's last line).
import { spawn } from 'node:child_process';

/** Runs a command; resolves with its exit code and, when `held`, its output. */
function run(command: string[], held: boolean): Promise<{ code: number; output: string }> {
  const child = spawn(command[0]!, command.slice(1), { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (output += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, output })));
}

const checks = Promise.all([run(['nice', '-n', '10', 'npm', 'run', '--silent', 'typecheck'], true), run(['nice', '-n', '10', 'npm', 'run', '--silent', 'lint'], true)]);
const tests = await run(['npm', 'run', '--silent', 'test:unit', '--', ...process.argv.slice(2)], false);
const [typecheck, lint] = await checks;
for (const [name, result] of [['typecheck', typecheck], ['lint', lint]] as const) {
  process.stdout.write(result.output);
  if (result.code !== 0) process.stdout.write(`npm run ${name} failed (exit code ${result.code})\n`);
}
process.exit([tests, typecheck, lint].every((r) => r.code === 0) ? 0 : 1);
