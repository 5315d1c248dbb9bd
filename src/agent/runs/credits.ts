// The price of an answer: credits per 1,000 input and output tokens and per warehouse query
// (SEXTANT_CREDITS_*). Rounded to 4 decimals so stored and streamed values agree.
import type { AgentConfig } from '../../config.ts';
import type { LlmUsage } from '../providers/types.ts';

/** Credits for a run's model usage and queries. */
export function computeCredits(usage: LlmUsage, queries: number, prices: AgentConfig['credits']): number {
  const raw = (usage.inputTokens / 1000) * prices.perKInputTokens + (usage.outputTokens / 1000) * prices.perKOutputTokens + queries * prices.perQuery;
  return Math.round(raw * 10_000) / 10_000;
}
