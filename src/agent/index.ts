// The agent domain: providers, the offline model, tools, the loop and runs.
export { AgentRuns, ChatNotFound } from './runs/run-manager.ts';
export type { AgentDeps, StartRunInput, StartedRun } from './runs/run-manager.ts';
export { rerunQueries } from './runs/rerun.ts';
export type { RerunTable } from './runs/rerun.ts';
export { usageTotals, getRun } from './runs/event-log.ts';
export type { RunRow, RunStatus, UsageTotals } from './runs/event-log.ts';
export { computeCredits } from './runs/credits.ts';
export { CreditLimitReached, creditLimits, setCreditLimit, type CreditLimit } from './usage/credit-limits.ts';
export { usageByUserAndDay, type UsageDay } from './usage/usage-report.ts';
export { createProvider } from './providers/create-provider.ts';
export { offlineProvider, OFFLINE_UNSUPPORTED } from './offline/offline-provider.ts';
export { LlmError } from './providers/errors.ts';
export type { LlmProvider, LlmRequest, LlmStreamEvent, LlmMessage, ToolSpec, ToolCall } from './providers/types.ts';
export type { AgentEvent, AgentEventType, StoredEvent } from './events.ts';
export { eventJson } from './events.ts';
export type * from './ports.ts';
export { memoryKnowledge, memoryChats, noUploads } from './memory-ports.ts';
export { DEFAULT_TOOLS } from './tools/index.ts';
