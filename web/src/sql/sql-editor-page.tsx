// /sql: the governed SQL editor. Opens a saved question (?question=), an answer's table
// (?chat=&answer=&df=) or an empty query; the SQL runs through the same governed path as every
// query, and the result can be charted and saved as a saved question.
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { loadEditorSource } from './editor-source.ts';
import { QueryEditor } from './query-editor.tsx';
import { openingOf } from './sql-paths.ts';

export function SqlEditorPage() {
  const [params] = useSearchParams();
  const key = params.toString();
  const source = useLoad((signal) => loadEditorSource(openingOf(new URLSearchParams(key)), signal), key);
  const title = source.data?.question ? `Edit SQL: ${source.data.question.title}` : 'SQL editor';
  useDocumentTitle(title);
  return (
    <section className="saved-page sql-page" aria-labelledby="sql-title">
      <h1 id="sql-title">{title}</h1>
      <p className="muted">Runs with your permissions and row filters, through the same checks as every query: one read-only statement, governed tables, the row limit.</p>
      <FormAlert problem={source.problem} />
      {source.loading && !source.data && <p role="status">Loading…</p>}
      {source.data && <QueryEditor key={key} source={source.data} />}
    </section>
  );
}
