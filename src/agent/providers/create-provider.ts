// Picks the model provider from configuration (SEXTANT_LLM_PROVIDER and friends).
import type { Clock } from '../../clock.ts';
import type { AgentConfig } from '../../config.ts';
import { offlineProvider } from '../offline/offline-provider.ts';
import { anthropicProvider } from './anthropic-provider.ts';
import { openAiProvider } from './openai-provider.ts';
import type { LlmProvider } from './types.ts';

/** The configured provider; `offline` needs nothing and is the default. */
export function createProvider(config: AgentConfig, clock: Clock): LlmProvider {
  const common = { model: config.model, apiKey: config.apiKey, baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, maxRetries: config.maxRetries, maxTokens: config.maxOutputTokens };
  if (config.provider === 'openai') return openAiProvider(common);
  if (config.provider === 'anthropic') return anthropicProvider(common);
  return offlineProvider({ clock, model: config.model });
}
