// `sextant eval ...`: evaluation suites and their runs (admins and modelers). `init` and `validate`
// work offline; `run` lives in eval-run.ts.
import { existsSync, writeFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { CommandContext } from '../context.ts';
import { CliError } from '../errors.ts';
import { objectTable } from '../output.ts';
import { questionRows, type RunView } from '../run-view.ts';

const print = (ctx: CommandContext, value: unknown, human: () => string) => ctx.out.out(ctx.out.json ? JSON.stringify(value) : human());
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^[^a-z0-9]+|-+$/g, '') || 'my-suite';

const TEMPLATE = (id: string) => `# An evaluation suite: questions with the answers your data should give.
# Check it offline with \`sextant eval validate <file>\`, upload it with \`sextant eval create <file>\`,
# and run it with \`sextant eval run <file> --target <environment id>\` (exit code 1 when it fails).
id: ${id}
name: My questions
description: What every change to the knowledge must keep right.
questions:
  - id: customers.total          # stable id: letters, digits, . _ : -
    question: How many customers do we have?
    expected_answer: 5000        # a number or an ISO date (YYYY-MM-DD), as text or a number
    answer_type: count           # number, count, currency, percent, ratio or date; inferred when left out
    tolerance_pct: 0             # relative difference allowed, in percent (default 3; dates compare exactly)
    expected_sql: SELECT COUNT(*) FROM main.customers
  - id: revenue.2025
    question: What was revenue in 2025?
    expected_answer: "$66,848,025.41"
    concept_name: revenue
  - id: orders.earliest
    question: When was the earliest order?
    expected_answer: 2022-01-05
`;

export function evalInit(ctx: CommandContext, file: string | undefined, opts: { force?: boolean }): void {
  const path = file ?? 'evaluation.yaml';
  if (existsSync(path) && !opts.force) throw new CliError(`${path} exists: pass --force to overwrite it.`, 2);
  writeFileSync(path, TEMPLATE(slug(basename(path, extname(path)))));
  print(ctx, { file: path }, () => `Wrote ${path}. Edit the questions, then \`sextant eval validate ${path}\`.`);
}

/** Offline: exits 1 with one line per problem when the file breaks the suite format. */
export async function evalValidate(ctx: CommandContext, file: string): Promise<void> {
  const { checkSuiteFile } = await import('../suite-file.ts');
  const { suite, problems } = checkSuiteFile(file);
  print(ctx, { file, valid: problems.length === 0, problems }, () => (suite ? `${file}: valid, ${suite.questions.length} question(s).` : `${file}: invalid\n  ${problems.join('\n  ')}`));
  if (problems.length > 0) process.exitCode = 1;
}

export async function evalCreate(ctx: CommandContext, file: string): Promise<void> {
  const { validSuite } = await import('../suite-file.ts');
  const suite = validSuite(file);
  const res = await ctx.client.json<{ path: string; commit: string }>('POST', '/api/knowledge/evaluations', { body: suite });
  print(ctx, res, () => `Created ${res.path} in ${ctx.settings.environment ?? 'production'} (commit ${res.commit.slice(0, 10)}). Run it with \`sextant eval run ${suite.id}\`.`);
}

type Listed = { id: string; name: string; question_count: number; error: string | null; last_run: { id: string; verdict: string; created_at: string } | null };

export async function evalList(ctx: CommandContext): Promise<void> {
  const res = await ctx.client.json<{ evaluations: Listed[] }>('GET', '/api/evaluations');
  const rows = res.evaluations.map((e) => ({ id: e.id, name: e.name, questions: e.question_count, last_run: e.last_run?.id ?? '', verdict: e.error ? `unusable: ${e.error}` : (e.last_run?.verdict ?? '') }));
  print(ctx, res, () => (rows.length === 0 ? 'No evaluations here. Start one with `sextant eval init`.' : objectTable(rows, ['id', 'name', 'questions', 'last_run', 'verdict'])));
}

export async function evalResults(ctx: CommandContext, runId: string): Promise<void> {
  const run = await ctx.client.json<RunView>('GET', `/api/evaluation_runs/${encodeURIComponent(runId)}`);
  print(ctx, run, () => `${run.evaluation_id} (${run.status}): ${run.verdict.toUpperCase()}\n${objectTable(questionRows(run), ['result', 'id', 'expected', 'observed', 'diff', 'note'])}`);
}

type Compared = { summary: Record<string, number>; questions: { id: string; change: string; expected: unknown; baseline: { observed: unknown } | null; run: { observed: unknown } | null }[] };

/** Exits 1 when a question regressed. */
export async function evalCompare(ctx: CommandContext, baseline: string, runId: string): Promise<void> {
  const res = await ctx.client.json<Compared>('GET', `/api/evaluation_runs/${encodeURIComponent(runId)}/compare`, { query: { baseline } });
  const rows = res.questions.map((q) => ({ change: q.change, id: q.id, expected: q.expected, baseline: q.baseline?.observed ?? '', run: q.run?.observed ?? '' }));
  const counts = Object.entries(res.summary).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k.replace('_', ' ')}`).join(', ');
  print(ctx, res, () => `${objectTable(rows, ['change', 'id', 'expected', 'baseline', 'run'])}\n${counts}`);
  if ((res.summary['regressed'] ?? 0) > 0) process.exitCode = 1;
}

export async function evalCancel(ctx: CommandContext, runId: string): Promise<void> {
  const run = await ctx.client.json<RunView>('POST', `/api/evaluation_runs/${encodeURIComponent(runId)}/cancel`, { body: {} });
  print(ctx, run, () => `Cancelled ${run.id}: ${run.summary.pass} passed, ${run.summary.fail} failed before it stopped.`);
}
