// Request and response schemas of the evaluation routes; the responses document the API in OpenAPI.
import { z } from 'zod';
import { CHANGES, GATE_MODES } from '../../evaluations/index.ts';
import { ANSWER_TYPES, SUITE_ID_RE } from '../../shared/evaluation-suite.ts';

export const EvaluationId = z.object({ id: z.string().regex(SUITE_ID_RE, 'an evaluation id (letters, digits, _, - or .)') });
export const RunId = z.object({ id: z.string().min(1).max(100) });

const Target = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('production') }),
  z.object({ kind: z.literal('environment'), environment_id: z.string().min(1).max(64) }),
]);

export const StartRunBody = z.object({
  target: Target.default({ kind: 'production' }).describe('What the questions are asked against; the definition is read where the request works (X-Service-Environment)'),
  expected_target_commit: z.string().regex(/^[0-9a-f]{40}$/, 'a 40-character commit id').optional().describe('Refused with 409 TARGET_MOVED when the target head is another commit'),
  idempotency_key: z.string().min(1).max(200).optional().describe('The same key returns the same run'),
  trigger: z.enum(['api', 'cli', 'manual']).default('api'),
  metadata: z
    .record(z.string().max(100), z.unknown())
    .refine((m) => JSON.stringify(m).length <= 10_000, 'at most 10,000 characters as JSON')
    .optional()
    .describe('Free-form labels kept with the run (CI job, pull request...)'),
});

export const RunsQuery = z.object({
  cursor: z.string().max(20).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const GateBody = z.object({ evaluation_gate: z.enum(GATE_MODES) });
export const Gate = GateBody;

const Value = z.union([z.number(), z.string()]);

export const SuiteQuestion = z.object({
  id: z.string(),
  question: z.string(),
  expected_answer: Value,
  answer_type: z.enum(ANSWER_TYPES),
  tolerance_pct: z.number(),
  concept_name: z.string().optional(),
  unit: z.string().optional(),
  expected_sql: z.string().optional(),
  source: z.string().optional(),
});

const Summary = z.object({ total: z.number(), pass: z.number(), fail: z.number(), error: z.number(), pending: z.number() });
const Verdict = z.enum(['pass', 'fail', 'error', 'pending']);

const QuestionResult = SuiteQuestion.extend({
  expected: Value.describe('The expected answer as compared: a fraction for percent and ratio, a day for dates'),
  result: z.enum(['pending', 'pass', 'fail', 'error']),
  observed: Value.nullable(),
  observed_source: z.enum(['table', 'text']).nullable().describe('table: the single value of the answer’s last query; text: read from the answer'),
  relative_diff: z.number().nullable().describe('abs(observed - expected) / abs(expected) * 100'),
  error: z.string().nullable().describe('no_answer, ambiguous, refused, timeout, agent_failed, cancelled or access_lost'),
  chat_id: z.string().nullable().describe('The answer’s chat (hidden from history; GET /api/c2/{chat_id})'),
  sql: z.array(z.string()),
  answer: z.string().nullable(),
  followed_up: z.boolean(),
  attempts: z.number(),
});

export const Run = z.object({
  id: z.string(),
  evaluation_id: z.string(),
  evaluation_name: z.string(),
  status: z.enum(['running', 'completed', 'cancelled']),
  finished: z.boolean(),
  verdict: Verdict,
  summary: Summary,
  evaluation_commit: z.string(),
  source_environment_id: z.string().nullable(),
  target: z.object({ kind: z.enum(['production', 'environment']), environment_id: z.string().nullable() }),
  target_commit: z.string().nullable(),
  trigger: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_by: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  regraded_at: z.string().nullable(),
  regrade_commit: z.string().nullable(),
  warnings: z.array(z.string()),
  questions: z.array(QuestionResult).optional(),
});

const Side = z.object({ result: z.string(), observed: Value.nullable() }).nullable();
// One named number per kind of change (an object, not a record: the document lists the properties).
const ChangeCounts = z.object(Object.fromEntries(CHANGES.map((c) => [c, z.number()])) as Record<(typeof CHANGES)[number], z.ZodNumber>);
export const Comparison = z.object({
  run_id: z.string(),
  baseline_id: z.string(),
  run_verdict: Verdict,
  baseline_verdict: Verdict,
  summary: ChangeCounts,
  questions: z.array(z.object({ id: z.string(), question: z.string(), change: z.enum(CHANGES), expected: Value, baseline: Side, run: Side })),
});

export const ResolvedTarget = z.object({
  kind: z.enum(['production', 'environment']),
  environment_id: z.string().nullable(),
  name: z.string(),
  commit: z.string().nullable(),
  git_branch: z.string().nullable(),
  overrides: z.record(z.string(), z.record(z.string(), z.string())),
});

export const EvaluationList = z.object({
  commit: z.string().nullable(),
  evaluations: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      question_count: z.number(),
      migrated: z.boolean(),
      warnings: z.array(z.string()),
      error: z.string().nullable(),
      last_run: Run.nullable(),
    }),
  ),
});

export const Evaluation = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  commit: z.string(),
  migrated: z.boolean(),
  warnings: z.array(z.string()),
  questions: z.array(SuiteQuestion),
});

export const EvaluationDiff = z.object({
  status: z.enum(['ready', 'pending']),
  environment: z.object({ id: z.string(), name: z.string(), commit: z.string().nullable() }),
  production: z.object({ commit: z.string().nullable() }),
  evaluations: z.array(
    z.object({
      evaluation_id: z.string(),
      name: z.string(),
      status: z.enum(['ready', 'pending']),
      production_run_id: z.string().nullable(),
      environment_run_id: z.string().nullable(),
      blocked_by: z.string().nullable(),
      comparison: Comparison.nullable(),
    }),
  ),
  regressions: z.array(
    z.object({
      evaluation_id: z.string(),
      question_id: z.string(),
      question: z.string(),
      expected: Value,
      production_observed: Value.nullable(),
      environment_observed: Value.nullable(),
      environment_result: z.string(),
    }),
  ),
  unusable: z.array(z.object({ id: z.string(), error: z.string() })),
});
