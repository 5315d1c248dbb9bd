// Evaluations: definitions, runs, regrading, comparison, the organization's merge gate and the
// environment diff it decides on. Admins and modelers only; definitions are read where the request
// works (X-Service-Environment), runs are shared by the organization. Static paths come first.
import { z } from 'zod';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { Comparison, Evaluation, EvaluationDiff, EvaluationId, EvaluationList, Gate, GateBody, ResolvedTarget, Run, RunId, RunsQuery, StartRunBody } from './evaluation-schemas.ts';

const tags = ['evaluations'];

/** Routes under /api/evaluations, /api/evaluation_runs and the environment diff. */
export function evaluationRoutes(s: Services) {
  const e = s.evaluations;
  return [
    route({
      method: 'GET', path: '/api/evaluations', operationId: 'list_evaluations', summary: 'Evaluations where the request works, each with its newest run', tags, auth: 'user', role: 'modeler',
      response: EvaluationList, handler: ({ principal, environmentId }) => e.definitions(principal, environmentId),
    }),
    route({
      method: 'GET', path: '/api/evaluations/target', operationId: 'evaluation_target', summary: 'A target (production, or environment_id) with its head commit and warehouse overrides', tags, auth: 'user', role: 'modeler',
      query: z.object({ environment_id: z.string().min(1).max(64).optional() }), response: ResolvedTarget,
      handler: ({ principal, query }) => e.target(principal, query.environment_id),
    }),
    route({ method: 'GET', path: '/api/evaluations/settings', operationId: 'get_evaluation_settings', summary: 'The organization’s evaluation gate on merges', tags, auth: 'user', role: 'modeler', response: Gate, handler: ({ principal }) => e.gate(principal) }),
    route({
      method: 'PUT', path: '/api/evaluations/settings', operationId: 'set_evaluation_settings', summary: 'Set the evaluation gate: off, report (merges carry the comparison) or required (regressions refuse merges)', tags, auth: 'user', role: 'admin',
      body: GateBody, response: Gate, handler: ({ principal, body }) => e.setGate(principal, body.evaluation_gate),
    }),
    route({
      method: 'GET', path: '/api/evaluations/{id}', operationId: 'get_evaluation', summary: 'An evaluation as runs ask it (defaults applied; older files migrated on read)', tags, auth: 'user', role: 'modeler',
      params: EvaluationId, response: Evaluation, handler: ({ principal, environmentId, params }) => e.definition(principal, environmentId, params.id),
    }),
    route({
      method: 'POST', path: '/api/evaluations/{id}/runs', operationId: 'start_evaluation_run', summary: 'Start a run; answers its id at once (409 while a run of it on the same target is active)', tags, auth: 'user', role: 'modeler', status: 202,
      params: EvaluationId, body: StartRunBody, response: z.object({ id: z.string() }),
      handler: ({ principal, environmentId, params, body }) =>
        e.start(principal, {
          evaluationId: params.id,
          sourceEnvironmentId: environmentId,
          target: body.target,
          trigger: body.trigger,
          ...(body.expected_target_commit ? { expectedTargetCommit: body.expected_target_commit } : {}),
          ...(body.idempotency_key ? { idempotencyKey: body.idempotency_key } : {}),
          ...(body.metadata ? { metadata: body.metadata } : {}),
        }),
    }),
    route({
      method: 'GET', path: '/api/evaluations/{id}/runs', operationId: 'list_evaluation_runs', summary: 'Runs of an evaluation, newest first (keyset pages)', tags, auth: 'user', role: 'modeler',
      params: EvaluationId, query: RunsQuery, response: z.object({ runs: z.array(Run), next_cursor: z.string().nullable() }),
      handler: ({ principal, params, query }) => e.list(principal, params.id, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) }),
    }),
    route({ method: 'GET', path: '/api/evaluation_runs/{id}', operationId: 'get_evaluation_run', summary: 'A run: verdict, summary, commits and every question’s result', tags, auth: 'user', role: 'modeler', params: RunId, response: Run, handler: ({ principal, params }) => e.get(principal, params.id) }),
    route({ method: 'POST', path: '/api/evaluation_runs/{id}/cancel', operationId: 'cancel_evaluation_run', summary: 'Cancel a running run (answers already scored stay)', tags, auth: 'user', role: 'modeler', params: RunId, response: Run, handler: ({ principal, params }) => e.cancel(principal, params.id) }),
    route({
      method: 'POST', path: '/api/evaluation_runs/{id}/regrade', operationId: 'regrade_evaluation_run', summary: 'Score a finished run again with the expected answers where the request works, without asking again', tags, auth: 'user', role: 'modeler',
      params: RunId, response: Run, handler: ({ principal, environmentId, params }) => e.regrade(principal, params.id, environmentId),
    }),
    route({
      method: 'GET', path: '/api/evaluation_runs/{id}/compare', operationId: 'compare_evaluation_runs', summary: 'Each question as fixed, regressed, still passing, still failing, new or removed against a baseline run', tags, auth: 'user', role: 'modeler',
      params: RunId, query: z.object({ baseline: z.string().min(1).max(100) }), response: Comparison,
      handler: ({ principal, params, query }) => e.compare(principal, params.id, query.baseline),
    }),
    route({
      method: 'GET', path: '/api/environments/{id}/evaluation_diff', operationId: 'environment_evaluation_diff', summary: 'Every evaluation of the environment run on it and on production (finished runs at the same commits reused), compared per question', tags: ['environments', 'evaluations'], auth: 'user', role: 'modeler',
      params: z.object({ id: z.string().min(1).max(64) }), response: EvaluationDiff, handler: ({ principal, params }) => e.environmentDiff(principal, params.id),
    }),
  ];
}
