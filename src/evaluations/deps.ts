// What the evaluations domain is built from (the composition root passes it once).
import type { Clock } from '../clock.ts';
import type { EvaluationConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import type { EvaluationPorts } from './ports.ts';
import type { EvalStore } from './store/tables.ts';

export interface EvaluationDeps {
  /** The asynchronous store (SQLite or PostgreSQL). */
  store: EvalStore;
  clock: Clock;
  log: Logger;
  ports: EvaluationPorts;
  config: EvaluationConfig;
  /** Aborted at shutdown: no new question starts, and questions in flight stay pending for the next start. */
  shutdown: AbortSignal;
}
