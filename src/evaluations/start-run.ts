// Starting a run: the definition read where the caller works (production or the environment of the
// request), the target resolved to its head commit (which every question of the run then reads), and
// one row per question, stored before the answer `{id}` goes out. Idempotency keys, the expected target
// commit and the one-active-run rule are checked here.
import { createHash } from 'node:crypto';
import { hasRole, type Principal } from '../auth/index.ts';
import { AppError, ValidationFailed } from '../errors.ts';
import { newId } from '../security/index.ts';
import type { EvaluationDeps } from './deps.ts';
import { EvaluationsForbidden, EvaluationUnusable, IdempotencyKeyReused, RunAlreadyActive, RunStartContended, TargetMoved } from './errors.ts';
import type { EvaluationDefinition, ResolvedTarget } from './ports.ts';
import { activeRun, insertRun, runByIdempotencyKey, type NewRun, type RunRow, type RunTrigger } from './store/runs-store.ts';

export type TargetRef = { kind: 'production' } | { kind: 'environment'; environment_id: string };

export interface StartRunInput {
  evaluationId: string;
  /** Where the definition is read: the request's environment, undefined for production. */
  sourceEnvironmentId: string | undefined;
  target: TargetRef;
  expectedTargetCommit?: string;
  idempotencyKey?: string;
  trigger: RunTrigger;
  metadata?: Record<string, unknown>;
}

/** Admins and modelers only (also checked by the routes). */
export function requireModeler(p: Principal): void {
  if (!hasRole(p, 'modeler')) throw new EvaluationsForbidden();
}

export const targetKeyOf = (target: TargetRef) => (target.kind === 'production' ? '' : target.environment_id);

/** Resolves a target named in a request body; an unknown environment is a 422 on that field. */
export async function resolveTargetField(deps: EvaluationDeps, p: Principal, target: TargetRef): Promise<ResolvedTarget> {
  try {
    return await deps.ports.knowledge.resolveTarget(p, target.kind === 'environment' ? target.environment_id : undefined);
  } catch (err) {
    if (err instanceof AppError && err.kind === 'not_found') {
      throw new ValidationFailed([{ loc: ['body', 'target', 'environment_id'], msg: 'no such environment', type: 'value_error' }]);
    }
    throw err;
  }
}

/** Starts a run and returns it as stored (`created` false for an idempotent replay); the caller launches it. */
export async function startRun(deps: EvaluationDeps, p: Principal, input: StartRunInput): Promise<{ run: RunRow; created: boolean }> {
  requireModeler(p);
  const targetKey = targetKeyOf(input.target);
  const replay = input.idempotencyKey ? await sameRequest(deps, p, input.idempotencyKey, input.evaluationId, targetKey) : undefined;
  if (replay) return { run: replay, created: false };
  const target = await resolveTargetField(deps, p, input.target);
  if (input.expectedTargetCommit && input.expectedTargetCommit !== target.commit) throw new TargetMoved(input.expectedTargetCommit, target.commit);
  const { definition, commit } = await deps.ports.knowledge.definition(p, input.sourceEnvironmentId, input.evaluationId);
  return createRun(deps, p, { ...input, definition, commit, target });
}

export interface NewRunInput {
  definition: EvaluationDefinition;
  /** Commit the definition was read at. */
  commit: string;
  sourceEnvironmentId: string | undefined;
  target: ResolvedTarget;
  trigger: RunTrigger;
  idempotencyKey?: string;
  metadata?: Record<string, unknown>;
}

/** Stores a new run of a definition on a resolved target; 409 while another run of it on that target is active. */
export async function createRun(deps: EvaluationDeps, p: Principal, input: NewRunInput): Promise<{ run: RunRow; created: boolean }> {
  const { definition, target } = input;
  if (definition.questions.length === 0) throw new EvaluationUnusable(definition.id, `no question can be scored (${definition.warnings.join('; ') || 'the file has none'})`);
  const targetKey = target.environment_id ?? '';
  const run: NewRun = {
    id: `evr_${newId(15)}`,
    org_id: p.orgId,
    evaluation_id: definition.id,
    evaluation_name: definition.name,
    source_env_id: input.sourceEnvironmentId ?? null,
    evaluation_commit: input.commit,
    definition_hash: definitionHash(definition.questions),
    target_kind: target.kind,
    target_env_id: target.environment_id,
    target_key: targetKey,
    target_commit: target.commit,
    trigger: input.trigger,
    metadata: JSON.stringify(input.metadata ?? {}),
    idempotency_key: input.idempotencyKey ?? null,
    user_id: p.userId,
    questions: JSON.stringify(definition.questions),
    warnings: JSON.stringify(definition.warnings),
    created_at: deps.clock.now(),
  };
  // A refused insert whose clash is gone when looked at (the active run ended in between) is tried
  // again: the next insert meets no running run. Three rounds of that in a row is a conflict.
  for (let round = 0; round < 3; round++) {
    if (await insertRun(deps.store, run, definition.questions)) {
      return { run: { ...run, seq: 0, status: 'running', finished_at: null, regraded_at: null, regrade_commit: null }, created: true };
    }
    // Another start won the race: the same idempotency key, or a run of the same evaluation and target.
    const again = input.idempotencyKey ? await sameRequest(deps, p, input.idempotencyKey, definition.id, targetKey) : undefined;
    if (again) return { run: again, created: false };
    const active = await activeRun(deps.store, p.orgId, definition.id, targetKey);
    if (active) throw new RunAlreadyActive(active.id);
  }
  throw new RunStartContended(definition.id);
}

/** The run an idempotency key already names, when it was for the same evaluation and target; 409 otherwise. */
async function sameRequest(deps: EvaluationDeps, p: Principal, key: string, evaluationId: string, targetKey: string): Promise<RunRow | undefined> {
  const existing = await runByIdempotencyKey(deps.store, p.orgId, key);
  if (!existing) return undefined;
  if (existing.evaluation_id !== evaluationId || existing.target_key !== targetKey) throw new IdempotencyKeyReused(existing.id);
  return existing;
}

/** SHA-256 of the questions as they are asked and scored. */
export function definitionHash(questions: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(questions)).digest('hex');
}
