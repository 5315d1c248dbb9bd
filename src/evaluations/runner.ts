// Executes runs in the background: every pending question through one limiter shared by all runs
// (SEXTANT_EVAL_CONCURRENCY questions at once, so the model provider sees a bounded load), as the user
// who started the run. Results are written one by one as they end; a restart resumes each unfinished
// run with the questions still pending and keeps every result written.
import { hasRole } from '../auth/index.ts';
import { askQuestion } from './ask-question.ts';
import type { EvaluationDeps } from './deps.ts';
import { Limiter } from './limiter.ts';
import { closePending, pendingResults } from './store/results-store.ts';
import { endRun, questionsOf, unfinishedRuns, type RunRow } from './store/runs-store.ts';

export class EvaluationRunner {
  private limiter: Limiter;
  private live = new Map<string, { cancel: AbortController; done: Promise<void> }>();

  constructor(private deps: EvaluationDeps) {
    this.limiter = new Limiter(deps.config.concurrency);
  }

  /** Starts again every run a restart interrupted; returns how many. */
  async resume(): Promise<number> {
    const runs = await unfinishedRuns(this.deps.store);
    for (const run of runs) this.launch(run);
    if (runs.length > 0) this.deps.log.info({ runs: runs.length }, 'resuming evaluation runs interrupted by a restart');
    return runs.length;
  }

  /** Executes a run in the background (once, however often it is launched). */
  launch(run: RunRow): void {
    const { log, shutdown } = this.deps;
    if (this.live.has(run.id) || shutdown.aborted) return;
    const cancel = new AbortController();
    const done = this.execute(run, cancel.signal)
      .catch((err: unknown) => {
        // At shutdown the store may close under a question: the run resumes at the next start.
        if (!shutdown.aborted) log.error({ err, run_id: run.id }, 'evaluation run failed');
      })
      .finally(() => this.live.delete(run.id));
    this.live.set(run.id, { cancel, done });
  }

  /** Stops a run's questions in flight (the caller has closed its pending results). */
  cancel(runId: string): void {
    this.live.get(runId)?.cancel.abort();
  }

  /** Settles when the run is no longer executing here (at once when it is not). */
  settled(runId: string): Promise<void> {
    return this.live.get(runId)?.done ?? Promise.resolve();
  }

  private async execute(run: RunRow, cancelled: AbortSignal): Promise<void> {
    const { store, clock, log, ports, shutdown } = this.deps;
    const principal = await ports.principals.principalOf(run.org_id, run.user_id);
    if (!principal || !hasRole(principal, 'modeler')) {
      // The user left the organization or lost the right to run evaluations since the run started.
      await closePending(store, run.id, 'access_lost', clock.now());
      await endRun(store, run.id, 'completed', clock.now());
      return;
    }
    const questions = new Map(questionsOf(run).map((q) => [q.id, q]));
    const signal = AbortSignal.any([cancelled, shutdown]);
    const jobs = (await pendingResults(store, run.id)).map((row) =>
      this.limiter.run(() => askQuestion(this.deps, { run, question: questions.get(row.question_id)!, principal, cancelled }), signal),
    );
    const failed = (await Promise.allSettled(jobs)).find((r) => r.status === 'rejected');
    if (signal.aborted) return;
    if (failed) {
      // A question whose outcome could not be written: close what is left rather than block the next run.
      log.error({ err: failed.reason, run_id: run.id }, 'an evaluation question failed; closing the run');
      await closePending(store, run.id, 'agent_failed', clock.now());
    }
    if (await endRun(store, run.id, 'completed', clock.now())) log.info({ run_id: run.id, evaluation_id: run.evaluation_id }, 'evaluation run finished');
  }
}
