// `sextant eval run <file|id>`: starts a run (a file is first created or updated where the CLI works),
// waits for it, prints the results, optionally writes a JUnit report, and exits 1 when the run fails
// the gate: fewer passing questions than --min-pass-rate (default 100 %), any question that could not
// be judged, or (with --baseline) any question that regressed. Made for CI jobs.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import type { CommandContext } from '../context.ts';
import { CliError } from '../errors.ts';
import { apiError } from '../http.ts';
import { objectTable } from '../output.ts';
import { junitReport } from '../junit.ts';
import { questionRows, type RunView } from '../run-view.ts';

/** True when `arg` names a file (rather than an evaluation id). */
const isFile = (arg: string) => existsSync(arg) && statSync(arg).isFile();

export interface RunOptions {
  target?: string;
  junit?: string;
  minPassRate?: string;
  baseline?: string;
  expectCommit?: string;
  timeout?: string;
}

export async function evalRun(ctx: CommandContext, ref: string, opts: RunOptions): Promise<void> {
  const minPassRate = numberOption(opts.minPassRate ?? '100', '--min-pass-rate', 0, 100);
  const timeoutMs = numberOption(opts.timeout ?? '3600', '--timeout', 1, 86_400) * 1000;
  const id = isFile(ref) ? await upsertSuite(ctx, ref) : ref;
  const target = !opts.target || opts.target === 'production' ? { kind: 'production' } : { kind: 'environment', environment_id: opts.target };
  const started = await ctx.client.json<{ id: string }>('POST', `/api/evaluations/${encodeURIComponent(id)}/runs`, {
    body: { target, trigger: 'cli', metadata: ciMetadata(ctx.env), ...(opts.expectCommit ? { expected_target_commit: opts.expectCommit } : {}) },
  });
  ctx.out.progress(`Running ${id} on ${opts.target ?? 'production'} (run ${started.id})${ctx.out.interactive ? '' : '\n'}`);
  const run = await waitFor(ctx, started.id, timeoutMs);
  const comparison = opts.baseline ? await ctx.client.json<{ summary: Record<string, number> }>('GET', `/api/evaluation_runs/${started.id}/compare`, { query: { baseline: opts.baseline } }) : undefined;
  const gate = judge(run, minPassRate, comparison?.summary['regressed']);
  if (opts.junit) writeFileSync(opts.junit, junitReport(run));
  if (ctx.out.json) ctx.out.out(JSON.stringify({ run, ...(comparison ? { comparison } : {}), gate }));
  else ctx.out.out(humanReport(run, gate));
  if (!gate.passed) process.exitCode = 1;
}

function numberOption(value: string, name: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new CliError(`${name} must be a number from ${min} to ${max}.`, 2);
  return n;
}

/** Creates the suite of a file where the CLI works, or updates it when it differs; returns its id. */
async function upsertSuite(ctx: CommandContext, file: string): Promise<string> {
  const { validSuite } = await import('../suite-file.ts');
  const suite = validSuite(file);
  const path = `/api/knowledge/evaluations/${encodeURIComponent(suite.id)}`;
  const current = await ctx.client.raw('GET', path);
  if (current.status === 404) {
    await ctx.client.json('POST', '/api/knowledge/evaluations', { body: suite });
    ctx.out.progress(`Created evaluations/${suite.id}.yaml from ${file}.\n`);
  } else if (!current.ok) {
    await ctx.client.json('GET', path);
  } else {
    const item = (await current.json()) as { data: unknown; version?: string };
    if (JSON.stringify(item.data) !== JSON.stringify(suite)) {
      // Only over the version just compared: a change someone saved meanwhile is not overwritten.
      const saved = await ctx.client.raw('PUT', path, { body: suite, headers: item.version ? { 'if-match': `"${item.version}"` } : {} });
      if (!saved.ok) throw await apiError(saved);
      ctx.out.progress(`Updated evaluations/${suite.id}.yaml from ${file}.\n`);
    }
  }
  return suite.id;
}

/** Labels of the CI job that started the run, when there is one (GitHub Actions, GitLab CI). */
function ciMetadata(env: NodeJS.ProcessEnv): Record<string, string> {
  const pick = (keys: [string, string][]) => Object.fromEntries(keys.flatMap(([name, key]) => (env[key] ? [[name, env[key]!.slice(0, 200)]] : [])));
  if (env['GITHUB_ACTIONS']) return { ci: 'github', ...pick([['repository', 'GITHUB_REPOSITORY'], ['sha', 'GITHUB_SHA'], ['run_id', 'GITHUB_RUN_ID'], ['ref', 'GITHUB_REF']]) };
  if (env['GITLAB_CI']) return { ci: 'gitlab', ...pick([['project', 'CI_PROJECT_PATH'], ['sha', 'CI_COMMIT_SHA'], ['pipeline_id', 'CI_PIPELINE_ID']]) };
  return {};
}

/** Polls the run until it ends; past the timeout the run is cancelled and the command fails. */
async function waitFor(ctx: CommandContext, runId: string, timeoutMs: number): Promise<RunView> {
  const deadline = Date.now() + timeoutMs;
  let shown = '';
  for (let delay = 200; ; delay = Math.min(delay * 1.5, 2000)) {
    const run = await ctx.client.json<RunView>('GET', `/api/evaluation_runs/${runId}`);
    if (run.finished) {
      if (ctx.out.interactive) ctx.out.progress('\n');
      return run;
    }
    if (Date.now() + delay > deadline) {
      await ctx.client.json('POST', `/api/evaluation_runs/${runId}/cancel`, { body: {} }).catch(() => undefined);
      throw new CliError(`The run ${runId} did not finish within ${timeoutMs / 1000} s and was cancelled (${run.summary.pending} question(s) pending).`, 1);
    }
    // A terminal redraws one line; a CI log gets a line each time the count moves, never a `\r`.
    const line = `Running: ${run.summary.total - run.summary.pending}/${run.summary.total} answered`;
    if (ctx.out.interactive) ctx.out.progress(`\r${line}`);
    else if (line !== shown) ctx.out.progress(`${line}\n`);
    shown = line;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

export interface Gate {
  passed: boolean;
  pass_rate: number;
  min_pass_rate: number;
  reasons: string[];
}

/** Whether a finished run passes the CI gate, and why not. */
export function judge(run: RunView, minPassRate: number, regressed: number | undefined): Gate {
  const { total, pass, error, pending } = run.summary;
  const passRate = total === 0 ? 0 : Math.round((pass / total) * 10_000) / 100;
  const reasons: string[] = [];
  if (error + pending > 0) reasons.push(`${error + pending} question(s) could not be judged`);
  if (passRate < minPassRate) reasons.push(`pass rate ${passRate}% is below ${minPassRate}%`);
  if (regressed) reasons.push(`${regressed} question(s) regressed against the baseline`);
  return { passed: reasons.length === 0, pass_rate: passRate, min_pass_rate: minPassRate, reasons };
}

function humanReport(run: RunView, gate: Gate): string {
  const where = run.target.kind === 'production' ? 'production' : `environment ${run.target.environment_id}`;
  const { total, pass, fail, error } = run.summary;
  return [
    `${run.evaluation_id} on ${where} @ ${run.target_commit?.slice(0, 10) ?? 'no commit'} (run ${run.id}): ${run.verdict.toUpperCase()}`,
    objectTable(questionRows(run), ['result', 'id', 'expected', 'observed', 'diff', 'note']),
    `${total} question(s): ${pass} pass, ${fail} fail, ${error} error (pass rate ${gate.pass_rate}%)`,
    gate.passed ? 'Gate: passed' : `Gate: failed: ${gate.reasons.join('; ')}`,
  ].join('\n');
}
