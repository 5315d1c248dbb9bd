// The evaluations domain: runs of evaluation definitions through the agent, their scoring, comparison,
// and the environment diff the merge gate decides on. It reaches knowledge, the agent and users only
// through its ports (./ports.ts), which src/compose implements.
export { Evaluations } from './service.ts';
export type { EvaluationDeps } from './deps.ts';
export type * from './ports.ts';
export type { StartRunInput, TargetRef } from './start-run.ts';
export type { RunView, QuestionView, RunSummary, Verdict } from './run-view.ts';
export type { Comparison, QuestionChange, Change } from './compare-runs.ts';
export { CHANGES } from './compare-runs.ts';
export type { EvaluationDiff, EvaluationDiffEntry, Regression } from './environment-diff.ts';
export type { EvaluationSummary } from './definitions.ts';
export { GATE_MODES, type GateMode } from './store/settings-store.ts';
export { FOLLOW_UP } from './ask-question.ts';
export { EvaluationNotFound, EvaluationUnusable, EvaluationStale } from './errors.ts';
export { checkOverride, gateDecision } from './merge-gate.ts';
export { countPendingQuestions } from './store/pending-questions.ts';
