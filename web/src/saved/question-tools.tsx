// What one does with a saved question beyond reading it: open its SQL and chart in the SQL editor,
// and download every row (read again as the person, on the server) as CSV or Excel.
import { Link } from 'react-router';
import { sqlEditorPath } from '../sql/sql-paths.ts';

export function QuestionTools({ questionId }: { questionId: string }) {
  const exportPath = (format: 'csv' | 'xlsx') => `/api/saved_questions/${encodeURIComponent(questionId)}/export?format=${format}`;
  return (
    <div className="message-actions" role="group" aria-label="Question actions">
      <Link className="button" to={sqlEditorPath({ question: questionId })}>
        Edit SQL and chart
      </Link>
      <a className="button" href={exportPath('csv')} download>
        Download CSV
      </a>
      <a className="button" href={exportPath('xlsx')} download>
        Download Excel
      </a>
    </div>
  );
}
