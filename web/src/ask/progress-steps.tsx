// What the agent is doing: one line per tool call, and the remarks it received.
import type { AnswerState } from './answer-state.ts';

const NAMES: Record<string, string> = {
  run_sql: 'Querying the data',
  look_up_values: 'Looking up values in the data',
  make_chart: 'Drawing a chart',
  search_knowledge: 'Searching the knowledge base',
  describe_table: 'Reading table documentation',
  list_tables: 'Looking at the tables',
};

export function ProgressSteps({ answer }: { answer: AnswerState }) {
  if (answer.steps.length === 0 && answer.feedback.length === 0 && !answer.stopping) {
    return answer.status === 'running' ? <p className="muted" role="status">Thinking…</p> : null;
  }
  return (
    <ol className="steps" aria-label="Steps">
      {answer.steps.map((s) => (
        <li key={s.callId} data-state={s.state}>
          {s.state === 'running' ? '…' : s.state === 'failed' ? '✗' : '✓'} {NAMES[s.name] ?? s.name}
          {s.summary && <span>: {s.summary}</span>}
        </li>
      ))}
      {answer.feedback.map((f, i) => (
        <li key={`fb-${i}`}>↳ Your remark was passed on: {f}</li>
      ))}
      {answer.stopping && answer.status === 'running' && <li>Stopping: wrapping up…</li>}
    </ol>
  );
}
