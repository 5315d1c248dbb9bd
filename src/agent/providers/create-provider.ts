// Picks the model provider from configuration (SEXTANT_LLM_PROVIDER and friends).
import type { Clock } from '../../clock.ts';
import type { AgentConfig } from '../../config.ts';
import { offlineProvider } from '../offline/offline-provider.ts';
import type { LlmProvider } from './types.ts';

/**
 * The configured provider; `offline` needs nothing and is the default. Only the configured provider's
 * SDK is loaded: each holds several MB the gateway would otherwise carry for nothing.
 */
export async function createProvider(config: AgentConfig, clock: Clock): Promise<LlmProvider> {
  const common = { model: config.model, apiKey: config.apiKey, baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, maxRetries: config.maxRetries, maxTokens: config.maxOutputTokens };
  if (config.provider === 'openai') return (await import('./openai-provider.ts')).openAiProvider(common);
  if (config.provider === 'anthropic') return (await import('./anthropic-provider.ts')).anthropicProvider(common);
  return offlineProvider({ clock, model: config.model });
}
