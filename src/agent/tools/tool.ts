// The shape of an agent tool and what it may touch while it runs.
import type { z } from 'zod';
import type { Principal } from '../../auth/index.ts';
import type { AgentEvent } from '../events.ts';
import type { AgentPorts, KnowledgeHit } from '../ports.ts';
import type { ToolSpec } from '../providers/types.ts';

/** A result table kept for charts, downloads (by df_key) and reruns. */
export interface Dataframe {
  dfKey: string;
  title?: string;
  sql: string;
  /** `uploads` for query_uploads results. */
  connectionId: string;
  dialect: string;
  columns: string[];
  rows: unknown[][];
  rowCount: number;
  truncated: boolean;
  /** Display formats of columns that show a governed metric (`integer`, `decimal`, `percent` or a currency code). */
  formats?: Record<string, string>;
}

/** What one run accumulates across tool calls. */
export interface RunState {
  dataframes: Map<string, Dataframe>;
  charts: { chartId: string; dfKey: string; type: string; spec: Record<string, unknown> }[];
  knowledgeCommit: string | undefined;
  knowledgeItems: Map<string, { kind: string; path: string }>;
  queries: number;
}

export interface ToolContext {
  principal: Principal;
  environmentId: string | undefined;
  chatId: string;
  ports: AgentPorts;
  rowLimit: number;
  callId: string;
  state: RunState;
  signal: AbortSignal;
  emit(event: AgentEvent): void;
}

export interface ToolOutput {
  /** What the model reads (JSON text). */
  content: string;
  /** One line for people (the tool_result event). */
  summary: string;
}

export interface AgentTool<S extends z.ZodType = z.ZodType> {
  spec: ToolSpec;
  args: S;
  execute(args: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}

/** Declares a tool; the generic parameter is inferred from the zod schema. */
export function defineTool<S extends z.ZodType>(tool: AgentTool<S>): AgentTool {
  return tool as unknown as AgentTool;
}

/** A fresh state for a run. */
export function newRunState(): RunState {
  return { dataframes: new Map(), charts: [], knowledgeCommit: undefined, knowledgeItems: new Map(), queries: 0 };
}

/**
 * Records knowledge items an answer used (for the answer's knowledge_items). The first commit read
 * pins the run: later reads and governance use it, so the answer records the commit it really used.
 */
export function noteKnowledge(state: RunState, commit: string | undefined, items: Pick<KnowledgeHit, 'kind' | 'path'>[]): void {
  state.knowledgeCommit ??= commit;
  for (const i of items) state.knowledgeItems.set(i.path, { kind: i.kind, path: i.path });
}

/** Rows shown to the model: enough to answer, few enough to keep the context small. */
export const MODEL_PREVIEW_ROWS = 50;
/** Rows carried by `table` events and stored as the answer's preview. */
export const EVENT_PREVIEW_ROWS = 100;
