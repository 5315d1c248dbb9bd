// One answer: the agent's steps, the text, each result with its chart, the credits, and the rating.
// `readOnly` (the public shared view) leaves out everything that needs the owner's session, and the
// owner's credits.
import { lazy, Suspense, type ReactNode } from 'react';
import { sqlEditorPath } from '../sql/sql-paths.ts';
import type { AnswerState } from './answer-state.ts';
import { Markdown } from './markdown.tsx';
import { ProgressSteps } from './progress-steps.tsx';
import { RatingBar } from './rating-bar.tsx';
import { ResultTable } from './result-table.tsx';
import { SqlBlock } from './sql-block.tsx';

const ChartView = lazy(() => import('./chart-view.tsx').then((m) => ({ default: m.ChartView })));

interface AnswerViewProps {
  answer: AnswerState;
  chatId: string;
  readOnly?: boolean;
  /** The person's actions on a finished answer (lineage, share, delete), under the rating. */
  actions?: ReactNode;
  /** Advice for whoever runs Sextant ("For the operator: configure…") is shown: admins only, as no one else can act on it. */
  operatorNotes?: boolean;
}

/** The answer's text without its paragraphs of advice for the operator. */
export function withoutOperatorNotes(text: string): string {
  return text
    .split(/\n{2,}/)
    .filter((paragraph) => !paragraph.trimStart().startsWith('For the operator:'))
    .join('\n\n');
}

export function AnswerView({ answer, chatId, readOnly = false, actions, operatorNotes = false }: AnswerViewProps) {
  const text = operatorNotes ? answer.text : withoutOperatorNotes(answer.text);
  const tabled = new Set(answer.tables.map((t) => t.dfKey));
  const looseCharts = answer.charts.filter((c) => !c.dfKey || !tabled.has(c.dfKey));
  const looseQueries = answer.queries.filter((q) => !answer.tables.some((t) => t.callId === q.callId));
  return (
    <div className="answer" aria-busy={answer.status === 'running'}>
      <ProgressSteps answer={answer} />
      {text && <Markdown text={text} />}
      {answer.errors.map((e, i) => (
        <div key={i} className="alert error" role="alert">
          {e.message}
        </div>
      ))}
      {answer.tables.map((t, i) => (
        <div key={t.dfKey}>
          <ResultTable table={t} chatId={chatId} index={i} readOnly={readOnly} editSql={editSqlOf(answer, chatId, t, readOnly)} />
          {answer.charts
            .filter((c) => c.dfKey === t.dfKey)
            .map((c) => (
              <Chart key={c.chartId} spec={c.spec} />
            ))}
        </div>
      ))}
      {looseCharts.map((c) => (
        <Chart key={c.chartId} spec={c.spec} />
      ))}
      {looseQueries.map((q) => (
        <SqlBlock key={q.callId} sql={q.sql} />
      ))}
      {answer.status !== 'running' && (
        <>
          <p className="credits">
            {answer.status === 'stopped' && 'Stopped. '}
            {answer.status === 'failed' && 'The answer did not finish. '}
            {!readOnly && (answer.copiedFromChatId ? 'Copied from another chat.' : answer.credits !== undefined ? `${formatCredits(answer.credits)} credits` : '')}
          </p>
          {answer.answerUuid && !readOnly && <RatingBar chatId={chatId} answerUuid={answer.answerUuid} />}
          {actions}
        </>
      )}
    </div>
  );
}

/** The SQL editor's address for a finished answer's table (its recorded SQL and connection). */
function editSqlOf(answer: AnswerState, chatId: string, table: AnswerState['tables'][number], readOnly: boolean): string | undefined {
  if (readOnly || !table.sql || !answer.answerUuid || answer.status === 'running') return undefined;
  return sqlEditorPath({ chat: chatId, answer: answer.answerUuid, df: table.dfKey });
}

function Chart({ spec }: { spec: Record<string, unknown> }) {
  return (
    <Suspense fallback={<p className="muted">Drawing the chart…</p>}>
      <ChartView spec={spec} />
    </Suspense>
  );
}

const formatCredits = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
