// The evaluations service the gateway and the merge gate call: one method per operation, each a
// thin wrapper over its module, with the runner that executes runs in the background.
import type { Principal } from '../auth/index.ts';
import { cancelRun } from './cancel-run.ts';
import { compareRuns } from './compare-runs.ts';
import { describeTarget, getDefinition, listDefinitions } from './definitions.ts';
import type { EvaluationDeps } from './deps.ts';
import { environmentDiff } from './environment-diff.ts';
import { readGate, writeGate } from './gate.ts';
import { getRun, listEvaluationRuns } from './read-runs.ts';
import { regradeRun } from './regrade-run.ts';
import { EvaluationRunner } from './runner.ts';
import { startRun, type StartRunInput } from './start-run.ts';
import { gateOf, type GateMode } from './store/settings-store.ts';

export class Evaluations {
  readonly runner: EvaluationRunner;

  constructor(private deps: EvaluationDeps) {
    this.runner = new EvaluationRunner(deps);
  }

  /** Resumes the runs a restart interrupted (called once the service is wired). */
  resume(): Promise<number> {
    return this.runner.resume();
  }

  /** Starts a run (or returns the run its idempotency key names) and answers its id at once. */
  async start(p: Principal, input: StartRunInput): Promise<{ id: string }> {
    const { run, created } = await startRun(this.deps, p, input);
    if (created) this.runner.launch(run);
    return { id: run.id };
  }

  get = (p: Principal, id: string) => getRun(this.deps, p, id);
  list = (p: Principal, evaluationId: string, page: { cursor?: string; limit?: number }) => listEvaluationRuns(this.deps, p, evaluationId, page);
  cancel = (p: Principal, id: string) => cancelRun(this.deps, this.runner, p, id);
  regrade = (p: Principal, id: string, environmentId: string | undefined) => regradeRun(this.deps, p, id, environmentId);
  compare = (p: Principal, id: string, baselineId: string) => compareRuns(this.deps, p, id, baselineId);
  definitions = (p: Principal, environmentId: string | undefined) => listDefinitions(this.deps, p, environmentId);
  definition = (p: Principal, environmentId: string | undefined, id: string) => getDefinition(this.deps, p, environmentId, id);
  target = (p: Principal, environmentId: string | undefined) => describeTarget(this.deps, p, environmentId);
  gate = (p: Principal) => readGate(this.deps, p);
  setGate = (p: Principal, gate: GateMode) => writeGate(this.deps, p, gate);
  environmentDiff = (p: Principal, environmentId: string) => environmentDiff(this.deps, p, environmentId, (run) => this.runner.launch(run));

  /** The organization's gate, for the merge path (no role check: the merge has its own). */
  gateMode(orgId: string): Promise<GateMode> {
    return gateOf(this.deps.store, orgId);
  }

  /** Settles when a run stops executing in this process (tests and benchmarks wait on it). */
  settled(runId: string): Promise<void> {
    return this.runner.settled(runId);
  }
}
