// Anthropic Messages API through the official SDK: streamed text and tool_use blocks whose input
// arrives as input_json_delta fragments; tool results go back as user tool_result blocks.
import Anthropic from '@anthropic-ai/sdk';
import { LlmError, toLlmError } from './errors.ts';
import { nodeFetch } from './node-fetch.ts';
import type { FinishReason, LlmMessage, LlmProvider, LlmProviderOptions, LlmRequest, LlmStreamEvent } from './types.ts';

/** Builds a provider for the Anthropic Messages API. */
export function anthropicProvider(opts: LlmProviderOptions): LlmProvider {
  const client = opts.apiKey
    ? new Anthropic({ apiKey: opts.apiKey, baseURL: opts.baseUrl, timeout: opts.timeoutMs ?? 120_000, maxRetries: opts.maxRetries ?? 3, fetch: nodeFetch })
    : undefined;
  return {
    name: 'anthropic',
    model: opts.model,
    async *stream(req: LlmRequest): AsyncIterable<LlmStreamEvent> {
      if (!client) throw new LlmError('LLM_KEY_MISSING', 'SEXTANT_LLM_API_KEY is not set for the anthropic provider');
      let stream;
      try {
        stream = await client.messages.create(
          {
            model: opts.model,
            max_tokens: req.maxTokens ?? opts.maxTokens ?? 4096,
            system: req.system,
            messages: toAnthropicMessages(req.messages),
            ...(req.tools.length > 0 ? { tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema })) } : {}),
            stream: true,
          },
          { signal: req.signal },
        );
      } catch (err) {
        throw toLlmError('anthropic', err);
      }
      const blocks = new Map<number, { id: string; name: string; json: string }>();
      let finish: FinishReason = 'other';
      let inputTokens = 0;
      let outputTokens = 0;
      try {
        for await (const ev of stream) {
          if (ev.type === 'message_start') {
            inputTokens = ev.message.usage.input_tokens ?? 0;
            outputTokens = ev.message.usage.output_tokens ?? 0;
          } else if (ev.type === 'content_block_start' && ev.content_block.type === 'tool_use') {
            blocks.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' });
            yield { type: 'tool_call_start', id: ev.content_block.id, name: ev.content_block.name };
          } else if (ev.type === 'content_block_delta') {
            if (ev.delta.type === 'text_delta') yield { type: 'text_delta', text: ev.delta.text };
            else if (ev.delta.type === 'input_json_delta') {
              const b = blocks.get(ev.index);
              if (b) {
                b.json += ev.delta.partial_json;
                yield { type: 'tool_call_delta', id: b.id, argumentsDelta: ev.delta.partial_json };
              }
            }
          } else if (ev.type === 'content_block_stop') {
            const b = blocks.get(ev.index);
            if (b) yield { type: 'tool_call_end', id: b.id, name: b.name, arguments: b.json || '{}' };
          } else if (ev.type === 'message_delta') {
            outputTokens = ev.usage.output_tokens ?? outputTokens;
            const r = ev.delta.stop_reason;
            finish = r === 'end_turn' || r === 'stop_sequence' ? 'stop' : r === 'tool_use' ? 'tool_calls' : r === 'max_tokens' ? 'length' : 'other';
          }
        }
      } catch (err) {
        throw toLlmError('anthropic', err);
      }
      yield { type: 'usage', usage: { inputTokens, outputTokens } };
      yield { type: 'finish', reason: finish };
    },
  };
}

/** The conversation as Anthropic messages: consecutive tool results are merged into one user turn. */
export function toAnthropicMessages(messages: LlmMessage[]): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (m.role === 'user') {
      // Feedback right after tool results joins their user turn (roles must alternate).
      if (last && last.role === 'user' && Array.isArray(last.content)) last.content.push({ type: 'text', text: m.content });
      else out.push({ role: 'user', content: m.content });
    } else if (m.role === 'assistant') {
      const content: Anthropic.ContentBlockParam[] = [];
      if (m.content) content.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls ?? []) content.push({ type: 'tool_use', id: c.id, name: c.name, input: parseArgs(c.arguments) });
      out.push({ role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '(no text)' }] });
    } else {
      const block: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content };
      if (last && last.role === 'user' && Array.isArray(last.content) && last.content.every((b) => b.type === 'tool_result')) last.content.push(block);
      else out.push({ role: 'user', content: [block] });
    }
  }
  return out;
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
