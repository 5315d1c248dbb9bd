// Any OpenAI-compatible chat completions endpoint (OpenAI, Azure OpenAI v1, Ollama, vLLM, LM Studio,
// OpenRouter) through the official SDK. Streamed tool calls arrive as fragments keyed by index.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { LlmError, toLlmError } from './errors.ts';
import { nodeFetch } from './node-fetch.ts';
import type { FinishReason, LlmMessage, LlmProvider, LlmProviderOptions, LlmRequest, LlmStreamEvent, ToolSpec } from './types.ts';

/** Builds a provider for an OpenAI-compatible endpoint. A key is required unless a baseUrl is set (local servers). */
export function openAiProvider(opts: LlmProviderOptions): LlmProvider {
  const keyless = !opts.apiKey && !opts.baseUrl;
  const client = keyless
    ? undefined
    : new OpenAI({ apiKey: opts.apiKey ?? 'not-needed', baseURL: opts.baseUrl, timeout: opts.timeoutMs ?? 120_000, maxRetries: opts.maxRetries ?? 3, fetch: nodeFetch });
  return {
    name: 'openai',
    model: opts.model,
    async *stream(req: LlmRequest): AsyncIterable<LlmStreamEvent> {
      if (!client) throw new LlmError('LLM_KEY_MISSING', 'SEXTANT_LLM_API_KEY is not set for the openai provider (or set SEXTANT_LLM_BASE_URL for a local server)');
      let stream;
      try {
        stream = await client.chat.completions.create(
          {
            model: opts.model,
            messages: toOpenAiMessages(req.system, req.messages),
            ...(req.tools.length > 0 ? { tools: req.tools.map(toOpenAiTool) } : {}),
            max_tokens: req.maxTokens ?? opts.maxTokens ?? 4096,
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: req.signal },
        );
      } catch (err) {
        throw toLlmError('openai', err);
      }
      // index -> call being assembled; ended when the turn finishes.
      const calls = new Map<number, { id: string; name: string; args: string }>();
      let finish: FinishReason = 'other';
      let usage = { inputTokens: 0, outputTokens: 0 };
      try {
        for await (const chunk of stream) {
          if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta;
          if (delta?.content) yield { type: 'text_delta', text: delta.content };
          for (const tc of delta?.tool_calls ?? []) {
            let call = calls.get(tc.index);
            if (!call) {
              call = { id: tc.id ?? `call_${tc.index}`, name: tc.function?.name ?? '', args: '' };
              calls.set(tc.index, call);
              yield { type: 'tool_call_start', id: call.id, name: call.name };
            }
            if (tc.function?.arguments) {
              call.args += tc.function.arguments;
              yield { type: 'tool_call_delta', id: call.id, argumentsDelta: tc.function.arguments };
            }
          }
          if (choice.finish_reason) finish = mapFinish(choice.finish_reason);
        }
      } catch (err) {
        throw toLlmError('openai', err);
      }
      for (const call of calls.values()) yield { type: 'tool_call_end', id: call.id, name: call.name, arguments: call.args || '{}' };
      yield { type: 'usage', usage };
      yield { type: 'finish', reason: calls.size > 0 ? 'tool_calls' : finish };
    },
  };
}

function mapFinish(reason: string): FinishReason {
  return reason === 'stop' ? 'stop' : reason === 'tool_calls' || reason === 'function_call' ? 'tool_calls' : reason === 'length' ? 'length' : 'other';
}

function toOpenAiTool(t: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
}

/** The system prompt and the conversation in chat completions form. */
export function toOpenAiMessages(system: string, messages: LlmMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else if (m.toolCalls && m.toolCalls.length > 0) {
      out.push({
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
      });
    } else out.push({ role: 'assistant', content: m.content });
  }
  return out;
}
