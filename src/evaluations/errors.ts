// Failures of the evaluations domain, each with a stable code (mapped to HTTP by the gateway's kind table).
import { Conflict, Forbidden, NotFound } from '../errors.ts';

export class EvaluationNotFound extends NotFound {
  constructor(id: string) {
    super(`No evaluation ${id}`, 'EVALUATION_NOT_FOUND');
  }
}

export class EvaluationRunNotFound extends NotFound {
  constructor() {
    super('Evaluation run not found', 'EVALUATION_RUN_NOT_FOUND');
  }
}

export class EvaluationsForbidden extends Forbidden {
  constructor(message = 'Evaluations are for admins and modelers', code = 'EVALUATIONS_FORBIDDEN') {
    super(message, code);
  }
}

/** The evaluation file exists but cannot be read as an evaluation, or has no question that can be scored. */
export class EvaluationUnusable extends Conflict {
  constructor(id: string, reason: string) {
    super(`Evaluation ${id} cannot run: ${reason}`, 'EVALUATION_UNUSABLE', { evaluation_id: id, reason });
  }
}

/** Another run of the evaluation on the same target is still going (one at a time). */
export class RunAlreadyActive extends Conflict {
  constructor(activeRunId: string) {
    super('A run of this evaluation on this target is still in progress', 'EVALUATION_RUN_ACTIVE', { active_run_id: activeRunId });
  }
}

/** Runs of the evaluation on the target kept starting and ending while this one tried to start: try again. */
export class RunStartContended extends Conflict {
  constructor(id: string) {
    super(`Runs of evaluation ${id} on this target are starting and ending too fast to start another: try again`, 'EVALUATION_RUN_CONTENDED', { evaluation_id: id });
  }
}

/** `expected_target_commit` no longer names the target's head. */
export class TargetMoved extends Conflict {
  constructor(expected: string, actual: string | null) {
    super('The target has moved since the expected commit', 'TARGET_MOVED', { expected_target_commit: expected, target_commit: actual });
  }
}

/** An idempotency key already names a run of another evaluation or target. */
export class IdempotencyKeyReused extends Conflict {
  constructor(runId: string) {
    super('This idempotency key was used for another evaluation or target', 'IDEMPOTENCY_KEY_REUSED', { run_id: runId });
  }
}

export class RunFinished extends Conflict {
  constructor(status: string) {
    super(`The run is already ${status}`, 'EVALUATION_RUN_FINISHED', { status });
  }
}

export class RunNotFinished extends Conflict {
  constructor() {
    super('The run has not finished yet', 'EVALUATION_RUN_NOT_FINISHED');
  }
}

/** The merge gate refuses: questions that pass on production fail in the environment. */
export class EvaluationRegression extends Conflict {
  constructor(regressions: unknown[]) {
    super('Evaluations regress in this environment; an admin may merge anyway with override_evaluations', 'EVALUATION_REGRESSION', { regressions });
  }
}

/** The merge gate cannot decide yet: runs of the environment diff are still going. */
export class EvaluationsPending extends Conflict {
  constructor(runs: string[]) {
    super('Evaluations of this environment are still running; merge again once GET /api/environments/{id}/evaluation_diff is ready', 'EVALUATIONS_PENDING', { runs });
  }
}

/** The environment or production moved while the gate was deciding. */
export class EvaluationStale extends Conflict {
  constructor() {
    super('The environment or production changed while evaluations were compared; merge again', 'EVALUATION_STALE');
  }
}
