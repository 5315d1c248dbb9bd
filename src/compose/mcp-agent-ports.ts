// The MCP tools ask_question and get_result, answered by the agent: a question starts a run at once,
// and a result is read from the run's stored events.
import { randomUUID } from 'node:crypto';
import { type AgentRuns } from '../agent/index.ts';
import type { Principal } from '../auth/index.ts';
import { AppError } from '../errors.ts';
import type { ChatResult, McpPorts, ResultChart, ResultQuery, ResultTable } from '../mcp/ports.ts';

/** askQuestion and getResult over the agent's runs; MCP questions run in production. */
export function agentMcpPorts(agent: AgentRuns): Pick<McpPorts, 'askQuestion' | 'getResult'> {
  return {
    async askQuestion(principal: Principal, { question, chatId }) {
      const id = chatId ?? randomUUID();
      await agent.start(principal, { chatId: id, message: question, environmentId: undefined });
      return { chatId: id };
    },
    async getResult(principal: Principal, chatId: string): Promise<ChatResult> {
      let run;
      try {
        run = agent.ownRun(principal, chatId);
      } catch (err) {
        if (err instanceof AppError && err.kind === 'not_found') return { status: 'not_found', chatId };
        throw err;
      }
      if (run.status === 'running' || agent.isActive(run.id)) {
        const last = agent.events(run).filter((e) => e.event.type === 'tool_call').pop();
        return { status: 'running', chatId, ...(last && last.event.type === 'tool_call' ? { progress: `running ${last.event.name}` } : {}) };
      }
      const events = agent.events(run).map((e) => e.event);
      if (run.status === 'failed') {
        const error = events.find((e) => e.type === 'error');
        return { status: 'failed', chatId, error: error && error.type === 'error' ? error.message : (run.answer ?? 'The run failed') };
      }
      const tables: ResultTable[] = [];
      const charts: ResultChart[] = [];
      const queries: ResultQuery[] = [];
      const sqlOf = new Map<string, string>();
      for (const e of events) {
        if (e.type === 'sql') {
          queries.push({ connectionId: e.connection_id, sql: e.sql, ok: e.ok });
          sqlOf.set(e.call_id, e.sql);
        }
        if (e.type === 'table') tables.push({ name: e.df_key, columns: e.columns, rows: e.rows, ...(sqlOf.has(e.call_id) ? { sql: sqlOf.get(e.call_id)! } : {}) });
        if (e.type === 'chart') charts.push({ title: typeof e.spec['title'] === 'string' ? e.spec['title'] : e.chart_id, spec: e.spec });
      }
      return { status: 'completed', chatId, answer: run.answer ?? '', tables, charts, queries };
    },
  };
}
