// The agent's tool box and the executor that runs one call with a timeout, turning failures into
// results the model can read.
import { AppError, ValidationFailed } from '../../errors.ts';
import type { ToolCall, ToolSpec } from '../providers/types.ts';
import { describeTable, searchKnowledge } from './knowledge-tools.ts';
import { lookUpValues } from './look-up-values.ts';
import { makeChart } from './make-chart.ts';
import { queryUploads, runSql } from './query-tools.ts';
import type { AgentTool, ToolContext, ToolOutput } from './tool.ts';

export { newRunState, noteKnowledge } from './tool.ts';
export type { AgentTool, Dataframe, RunState, ToolContext, ToolOutput } from './tool.ts';

/** Every tool, in the order the model sees them. */
export const DEFAULT_TOOLS: AgentTool[] = [searchKnowledge, describeTable, runSql, lookUpValues, queryUploads, makeChart];

export const toolSpecs = (tools: AgentTool[]): ToolSpec[] => tools.map((t) => t.spec);

export interface ToolOutcome extends ToolOutput {
  ok: boolean;
  error?: { code: string; message: string };
}

/** Runs one tool call; never throws: errors and timeouts become a result the model reads. */
export async function executeTool(tools: AgentTool[], call: ToolCall, ctx: Omit<ToolContext, 'signal'>, timeoutMs: number, outer: AbortSignal): Promise<ToolOutcome> {
  const tool = tools.find((t) => t.spec.name === call.name);
  if (!tool) return failure('UNKNOWN_TOOL', `No tool named ${call.name}; tools are ${tools.map((t) => t.spec.name).join(', ')}`);
  let raw: unknown;
  try {
    raw = JSON.parse(call.arguments || '{}');
  } catch {
    return failure('TOOL_ARGS_INVALID', 'The arguments are not valid JSON');
  }
  const parsed = tool.args.safeParse(raw);
  if (!parsed.success) return failure('TOOL_ARGS_INVALID', parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; '));
  const controller = new AbortController();
  const onOuter = () => controller.abort();
  outer.addEventListener('abort', onOuter, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new AppError('unavailable', 'TOOL_TIMEOUT', `${call.name} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const out = await Promise.race([tool.execute(parsed.data, { ...ctx, signal: controller.signal }), timeout]);
    return { ...out, ok: true };
  } catch (err) {
    if (err instanceof ValidationFailed) return failure(err.code, err.issues.map((i) => i.msg).join('; '));
    if (err instanceof AppError) return failure(err.code, err.message, err.data);
    return failure('TOOL_FAILED', `${call.name} failed unexpectedly`);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onOuter);
  }
}

function failure(code: string, message: string, data?: Record<string, unknown>): ToolOutcome {
  return { ok: false, error: { code, message }, content: JSON.stringify({ error: { code, message, ...(data ? { data } : {}) } }), summary: `${code}: ${message}` };
}
