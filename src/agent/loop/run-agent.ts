// The agent loop: stream a model turn, run the tools it asked for, feed results (and any feedback the
// user sent meanwhile) back, until the model answers in text, the step limit is reached, or a stop
// is requested; a stop or the step limit ends with one tool-less turn asking for a short summary.
import { AppError } from '../../errors.ts';
import type { AgentEvent } from '../events.ts';
import { LlmError } from '../providers/errors.ts';
import type { LlmMessage, LlmProvider, LlmUsage, ToolCall } from '../providers/types.ts';
import { executeTool, toolSpecs, type AgentTool, type ToolContext } from '../tools/index.ts';

export interface RunControl {
  /** Feedback sent since the last call, oldest first. */
  takeFeedback(): { id: string; text: string }[];
  stopRequested(): boolean;
  /** Aborted when a stop is requested, so a model turn in flight ends early. */
  stopSignal: AbortSignal;
}

export interface AgentLoopInput {
  provider: LlmProvider;
  tools: AgentTool[];
  system: string;
  messages: LlmMessage[];
  toolContext: Omit<ToolContext, 'signal' | 'callId'>;
  maxSteps: number;
  toolTimeoutMs: number;
  maxTokens?: number;
  /** Hard cancellation (service shutdown). */
  signal: AbortSignal;
  control: RunControl;
  emit(event: AgentEvent): void;
}

export interface AgentLoopResult {
  status: 'completed' | 'stopped' | 'failed';
  text: string;
  usage: LlmUsage;
  error?: { code: string; message: string };
}

export const STOP_INSTRUCTION =
  'The user asked you to stop now. Without calling any tool, reply with a short summary (two or three sentences) of what you found so far.';
export const STEP_LIMIT_INSTRUCTION = 'You reached the step limit. Without calling any tool, reply with a short summary of what you found so far.';

/** What the steps of one loop share: its input, the conversation so far and the tokens used. */
interface Loop {
  input: AgentLoopInput;
  messages: LlmMessage[];
  usage: LlmUsage;
  specs: ReturnType<typeof toolSpecs>;
}

/** Runs the loop to its end; never throws (failures come back as status `failed` with an error). */
export async function runAgentLoop(input: AgentLoopInput): Promise<AgentLoopResult> {
  const { emit, control } = input;
  const loop: Loop = { input, messages: [...input.messages], usage: { inputTokens: 0, outputTokens: 0 }, specs: toolSpecs(input.tools) };
  const { messages, usage } = loop;
  let lastText = '';
  try {
    for (let step = 0; step < input.maxSteps; step++) {
      if (input.signal.aborted) throw SHUTTING_DOWN();
      if (control.stopRequested()) return await wrapUp(loop, STOP_INSTRUCTION, 'stopped');
      const signal = AbortSignal.any([input.signal, control.stopSignal]);
      let result;
      try {
        result = await modelTurn(loop, true, signal);
      } catch (err) {
        if (control.stopRequested() && !input.signal.aborted) return await wrapUp(loop, STOP_INSTRUCTION, 'stopped');
        throw err;
      }
      if (result.text) lastText = result.text;
      messages.push({ role: 'assistant', content: result.text, toolCalls: result.calls });
      if (result.calls.length === 0) return { status: 'completed', text: result.text || lastText, usage };
      await runToolCalls(loop, result.calls);
    }
    return await wrapUp(loop, STEP_LIMIT_INSTRUCTION, 'completed');
  } catch (err) {
    // A model call or tool cut by the shutdown fails with its own words; the cause is the shutdown.
    const error = input.signal.aborted ? describe(SHUTTING_DOWN()) : describe(err);
    emit({ type: 'error', ...error });
    return { status: 'failed', text: `The answer could not be completed: ${error.message}`, usage, error };
  }
}

/** Streams one model turn, emitting its text as it comes and adding up its usage. */
async function modelTurn({ input, messages, usage, specs }: Loop, withTools: boolean, signal: AbortSignal): Promise<{ text: string; calls: ToolCall[] }> {
  const { provider, emit } = input;
  let text = '';
  const calls: ToolCall[] = [];
  // Pieces of text that arrive together (one read from the model's connection) leave as one
  // text_delta: the flush waits for the microtasks decoding that read, not for more I/O. A gateway
  // that keeps up sends every piece as it came; one that falls behind reads several pieces at
  // once and then stores and sends them in one event instead of one each, so it catches up.
  let pending = '';
  let flushQueued = false;
  const flushText = () => {
    flushQueued = false;
    if (!pending) return;
    const piece = pending;
    pending = '';
    emit({ type: 'text_delta', text: piece });
  };
  try {
    for await (const e of provider.stream({ system: input.system, messages, tools: withTools ? specs : [], maxTokens: input.maxTokens, signal })) {
      if (e.type === 'text_delta') {
        text += e.text;
        pending += e.text;
        if (!flushQueued) {
          flushQueued = true;
          process.nextTick(flushText);
        }
        continue;
      }
      flushText();
      if (e.type === 'tool_call_end') calls.push({ id: e.id, name: e.name, arguments: e.arguments });
      else if (e.type === 'usage') {
        usage.inputTokens += e.usage.inputTokens;
        usage.outputTokens += e.usage.outputTokens;
      }
    }
  } finally {
    // Text received before the end (or a failure) is delivered before what follows it.
    flushText();
  }
  // A provider's stream may end quietly when aborted: a shutdown's cut is a failure, never an answer.
  if (input.signal.aborted) throw SHUTTING_DOWN();
  return { text, calls };
}

/** Runs the tools of one turn in order; feedback or a stop skips the rest of them. */
async function runToolCalls({ input, messages }: Loop, calls: ToolCall[]): Promise<void> {
  const { emit, control } = input;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    emit({ type: 'tool_call', call_id: call.id, name: call.name, arguments: parseOrRaw(call.arguments) });
    const out = await executeTool(input.tools, call, { ...input.toolContext, callId: call.id }, input.toolTimeoutMs, input.signal);
    emit({ type: 'tool_result', call_id: call.id, name: call.name, ok: out.ok, summary: out.summary, ...(out.error ? { error: out.error } : {}) });
    messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: out.content });
    const feedback = control.takeFeedback();
    if (feedback.length === 0 && !control.stopRequested()) continue;
    // The remaining calls of this turn are answered as skipped: the user changed course.
    for (const rest of calls.slice(i + 1)) {
      messages.push({ role: 'tool', toolCallId: rest.id, name: rest.name, content: JSON.stringify({ skipped: 'the user sent feedback or asked to stop' }) });
    }
    for (const f of feedback) {
      emit({ type: 'feedback_applied', feedback_id: f.id, text: f.text });
      messages.push({ role: 'user', content: `Feedback from the user while you were working: ${f.text}` });
    }
    return;
  }
}

/** One tool-less turn asking for a short summary (after a stop or at the step limit). */
async function wrapUp(loop: Loop, instruction: string, status: AgentLoopResult['status']): Promise<AgentLoopResult> {
  loop.messages.push({ role: 'user', content: instruction });
  try {
    const { text } = await modelTurn(loop, false, loop.input.signal);
    return { status, text, usage: loop.usage };
  } catch (err) {
    const error = loop.input.signal.aborted ? describe(SHUTTING_DOWN()) : describe(err);
    loop.input.emit({ type: 'error', ...error });
    return { status: 'failed', text: fallbackSummary(loop.messages), usage: loop.usage, error };
  }
}

const SHUTTING_DOWN = () => new AppError('unavailable', 'RUN_ABORTED', 'The service is shutting down');

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof LlmError || err instanceof AppError) return { code: err.code, message: err.message };
  return { code: 'AGENT_FAILED', message: 'The agent failed unexpectedly' };
}

function parseOrRaw(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** When even the summary turn fails: say what was done, from the tool results. */
function fallbackSummary(messages: LlmMessage[]): string {
  const tools = messages.filter((m) => m.role === 'tool').length;
  return `Stopped after ${tools} tool call${tools === 1 ? '' : 's'}; no summary could be written.`;
}
