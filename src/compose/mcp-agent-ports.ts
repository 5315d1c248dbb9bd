// The MCP tools ask_question and get_result, answered by the agent: a question starts a run at once,
// and a result is read from the run's stored events.
import { randomUUID } from 'node:crypto';
import { type AgentRuns } from '../agent/index.ts';
import type { Principal } from '../auth/index.ts';
import { AppError } from '../errors.ts';
import type { ChatResult, McpPorts, ResultChart, ResultTable } from '../mcp/ports.ts';

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
        run = await agent.ownRun(principal, chatId);
      } catch (err) {
        if (err instanceof AppError && err.kind === 'not_found') return { status: 'not_found', chatId };
        throw err;
      }
      if (run.status === 'running' || agent.isActive(run.id)) {
        const last = (await agent.events(run)).filter((e) => e.event.type === 'tool_call').pop();
        return { status: 'running', chatId, ...(last && last.event.type === 'tool_call' ? { progress: `running ${last.event.name}` } : {}) };
      }
      const r = await agent.result(run);
      if (run.status === 'failed') return { status: 'failed', chatId, error: r.errors[0]?.message ?? run.answer ?? 'The run failed' };
      const tables: ResultTable[] = r.tables.map((t) => ({ name: t.title, columns: t.columns, rows: t.rows, ...(t.sql === undefined ? {} : { sql: t.sql }) }));
      const charts: ResultChart[] = r.charts.map((c) => ({ title: c.title, spec: c.spec }));
      return { status: 'completed', chatId, answer: r.content, tables, charts, queries: r.queries };
    },
  };
}
