// One interface over every model provider: a streaming chat with tool calls, normalized to a small
// event vocabulary so the agent loop never sees a provider's wire format.

/** A tool the model may call; `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
}

export type LlmMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface LlmRequest {
  system: string;
  messages: LlmMessage[];
  tools: ToolSpec[];
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'other';

/** What a provider streams, in order: deltas and tool calls, then usage, then one finish. */
export type LlmStreamEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'tool_call_start'; id: string; name: string }
  | { type: 'tool_call_delta'; id: string; argumentsDelta: string }
  | { type: 'tool_call_end'; id: string; name: string; arguments: string }
  | { type: 'usage'; usage: LlmUsage }
  | { type: 'finish'; reason: FinishReason };

/** How a hosted model is reached: the same options for every provider (see create-provider). */
export interface LlmProviderOptions {
  model: string;
  apiKey?: string;
  baseUrl?: string;
  timeoutMs?: number;
  maxRetries?: number;
  maxTokens?: number;
}

export interface LlmProvider {
  /** `offline`, `openai` or `anthropic`. */
  readonly name: string;
  readonly model: string;
  /** Streams one model turn. Throws LlmError (typed) on failure. */
  stream(req: LlmRequest): AsyncIterable<LlmStreamEvent>;
}

/** One finished model turn, gathered from the stream. */
export interface LlmTurn {
  text: string;
  toolCalls: ToolCall[];
  usage: LlmUsage;
  finish: FinishReason;
}

/** Reads a whole turn (used by the synchronous paths and the benchmark's direct calls). */
export async function collectTurn(events: AsyncIterable<LlmStreamEvent>, onEvent?: (e: LlmStreamEvent) => void): Promise<LlmTurn> {
  const turn: LlmTurn = { text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finish: 'other' };
  for await (const e of events) {
    onEvent?.(e);
    if (e.type === 'text_delta') turn.text += e.text;
    else if (e.type === 'tool_call_end') turn.toolCalls.push({ id: e.id, name: e.name, arguments: e.arguments });
    else if (e.type === 'usage') {
      turn.usage.inputTokens += e.usage.inputTokens;
      turn.usage.outputTokens += e.usage.outputTokens;
    } else if (e.type === 'finish') turn.finish = e.reason;
  }
  return turn;
}
