// The editor itself: the connection, the SQL with completion from the catalog, Run and Stop, the
// result as the chat shows it with its chart controls, and saving (a new saved question, or the
// opened one's next version).
import { useEffect, useMemo, useState } from 'react';
import { api, call } from '../api/client.ts';
import { buildChartSpec, settingsOfSpec, type ChartSettings } from '../../../src/shared/chart-spec.ts';
import { SaveQuestion } from '../saved/save-question.tsx';
import { SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { CodeEditor } from './code-editor.tsx';
import { completionSchema } from './completion-schema.ts';
import type { EditorSource } from './editor-source.ts';
import { QueryResultView } from './query-result.tsx';
import { SaveChanges } from './save-changes.tsx';
import { useQueryRun } from './use-query-run.ts';

export function QueryEditor({ source }: { source: EditorSource }) {
  // Every table the person may read, not only the 50 most used: each is a name to complete.
  const catalog = useLoad((signal) => call(api.GET('/api/cli/catalog', { params: { query: { limit: 1000 } }, signal })));
  const [sql, setSql] = useState(source.sql);
  const [chosenConnection, setConnection] = useState(source.connectionId);
  const [chosen, setSettings] = useState<ChartSettings | undefined>();
  const query = useQueryRun();
  const connections = catalog.data?.connections ?? [];
  const connectionId = chosenConnection ?? connections[0]?.id;
  const dialect = connections.find((c) => c.id === connectionId)?.dialect;
  const { namespace, defaultSchema } = useMemo(() => completionSchema(catalog.data?.top_tables ?? [], connectionId ?? ''), [catalog.data, connectionId]);
  const columns = query.result?.columns;
  // The opened chart's choices until the person changes one; read once the result's columns are known.
  // The opened chart itself stays as it was (an agent's title, its own encodings) until then.
  const settings = chosen ?? (columns ? settingsOfSpec(source.chart, columns) : undefined);
  const chart = chosen && columns ? buildChartSpec(chosen, columns) : source.chart;
  const run = () => void query.run(connectionId, sql);
  useEffect(() => {
    // What was opened shows its rows at once, as a saved question's page does.
    if (source.sql) void query.run(source.connectionId, source.sql);
    // Once, for what was opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <>
      <FormAlert problem={catalog.problem} />
      {connections.length > 1 && (
        <SelectField label="Connection" value={connectionId ?? ''} onChange={setConnection} options={connections.map((c) => ({ value: c.id, label: c.name }))} />
      )}
      <CodeEditor label="SQL" value={sql} onChange={setSql} onRun={run} namespace={namespace} defaultSchema={defaultSchema} dialect={dialect} />
      <div className="run-status">
        <button type="button" className="primary" disabled={query.running || !sql.trim()} onClick={run}>
          Run
        </button>
        <button type="button" disabled={!query.running} onClick={query.stop}>
          Stop
        </button>
        {query.running && <span role="status">Running the query…</span>}
        {query.stopped && <span role="status">Stopped: the query was cancelled.</span>}
        <span className="spacer" />
        {connectionId && (
          <SaveQuestion label={source.question ? 'Save as a new question' : 'Save as saved question'} query={{ connectionId, sql, chart }} />
        )}
        {source.question && connectionId && <SaveChanges question={source.question} edit={{ connection_id: connectionId, sql, chart }} />}
      </div>
      <FormAlert problem={query.problem} />
      {query.result && settings && <QueryResultView result={query.result} settings={settings} chart={chart} onSettings={setSettings} />}
    </>
  );
}
