// The evaluations' agent port: a question is an agent run in a hidden chat of the run's user, in the
// target environment, with knowledge pinned to the run's target commit (so every question of a run
// reads the same knowledge while people keep editing). The reply is read from the run's events.
import type { AgentRuns } from '../agent/index.ts';
import type { AgentReply, EvaluationAgent } from '../evaluations/index.ts';
import type { KnowledgeDeps } from '../knowledge/index.ts';
import { knowledgePort } from './agent-ports.ts';

export function evaluationAgentPort(agent: AgentRuns, k: KnowledgeDeps): EvaluationAgent {
  return {
    async ask(principal, { chatId, message, environmentId, commit, signal }): Promise<AgentReply> {
      const { row, done } = await agent.start(principal, { chatId, message, environmentId, hidden: true, ...(commit ? { knowledge: knowledgePort(k, commit) } : {}) });
      const stop = () => {
        if (agent.isActive(row.id)) void agent.stop(principal, chatId);
      };
      signal.addEventListener('abort', stop, { once: true });
      if (signal.aborted) stop();
      const finished = await done.finally(() => signal.removeEventListener('abort', stop));
      const events = (await agent.events(row)).map((e) => e.event);
      const tables = events.flatMap((e) => (e.type === 'table' ? [e] : []));
      const last = tables[tables.length - 1];
      return {
        status: finished.status === 'running' ? 'failed' : finished.status,
        text: finished.answer ?? '',
        ...(last ? { table: { columns: last.columns, rows: last.rows.slice(0, 2), row_count: last.row_count } } : {}),
        sql: events.flatMap((e) => (e.type === 'sql' ? [e.sql] : [])),
      };
    },
  };
}
