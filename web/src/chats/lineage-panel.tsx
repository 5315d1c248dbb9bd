// Where an answer's data came from: the tables and columns its queries read, read when the person
// opens the panel; each result column can be traced to the source columns it is made of.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

type Lineage = ResponseOf<'/api/c2/{chat_id}/lineage/{message_id}', 'get'>;
type Query = Lineage['queries'][number];
type Source = { schema?: string | undefined; table: string; column?: string };

const tableName = (s: Source) => (s.schema ? `${s.schema}.${s.table}` : s.table);
const columnName = (s: Source & { column: string }) => `${tableName(s)}.${s.column}`;

/** A result table of the answer: the lineage's queries are named after the table they made. */
export interface ResultRef {
  dfKey: string;
  sql: string | undefined;
}

/** "Result n" for the table a query made (by df_key, or by its SQL for the answer's `main` query). */
function queryName(q: Query, results: ResultRef[]): string {
  let at = results.findIndex((r) => r.dfKey === q.query_id);
  if (at < 0) at = results.findIndex((r) => r.sql === q.sql);
  return at >= 0 ? `Result ${at + 1}` : q.query_id === 'main' ? 'Main query' : q.query_id;
}

interface LineagePanelProps {
  chatId: string;
  answerUuid: string;
  results: ResultRef[];
}

export function LineagePanel({ chatId, answerUuid, results }: LineagePanelProps) {
  const [lineage, setLineage] = useState<Lineage | undefined>();
  const load = useAction(async () => setLineage(await call(api.GET('/api/c2/{chat_id}/lineage/{message_id}', { params: { path: { chat_id: chatId, message_id: answerUuid } } }))));
  return (
    <details className="lineage" onToggle={(e) => e.currentTarget.open && !lineage && !load.pending && void load.run()}>
      <summary>Data lineage: tables and columns read</summary>
      {load.pending && <p role="status">Tracing the queries…</p>}
      <FormAlert problem={load.problem} />
      {lineage && lineage.queries.length === 0 && <p className="muted">This answer read no table.</p>}
      {lineage?.queries.map((q) => (
        <QueryLineage key={q.query_id} query={q} name={queryName(q, results)} chatId={chatId} answerUuid={answerUuid} />
      ))}
    </details>
  );
}

function QueryLineage({ query, name, chatId, answerUuid }: { query: Query; name: string; chatId: string; answerUuid: string }) {
  const read = new Map<string, Source & { column: string }>();
  for (const c of query.columns) for (const s of c.sources) read.set(columnName(s), s);
  return (
    <section className="lineage-query" aria-label={`Lineage of ${name}`}>
      <h3>
        {name} <span className="muted">on {query.connection_id}</span>
      </h3>
      <h4>Tables read</h4>
      <ul>
        {query.tables.map((t) => (
          <li key={tableName(t)}>
            <code>{tableName(t)}</code>
          </li>
        ))}
      </ul>
      <h4>Columns read</h4>
      {read.size === 0 ? (
        <p className="muted">None by name (the query counts or uses constants only).</p>
      ) : (
        <ul className="inline-list">
          {[...read.keys()].sort().map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
      )}
      <h4>Result columns</h4>
      <ul>
        {query.columns.map((c) => (
          <li key={c.column}>
            <ColumnTrace chatId={chatId} answerUuid={answerUuid} queryId={query.query_id} column={c.column} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One result column, traced on request through the column endpoint. */
function ColumnTrace({ chatId, answerUuid, queryId, column }: { chatId: string; answerUuid: string; queryId: string; column: string }) {
  const [sources, setSources] = useState<(Source & { column: string })[] | undefined>();
  const trace = useAction(async () => {
    const found = await call(api.GET('/api/c2/{chat_id}/lineage/{message_id}/column', { params: { path: { chat_id: chatId, message_id: answerUuid }, query: { query: queryId, column } } }));
    setSources(found.sources);
  });
  return (
    <>
      <code>{column}</code>{' '}
      {sources === undefined ? (
        <button type="button" className="link" disabled={trace.pending} onClick={() => void trace.run()} aria-label={`Trace column ${column}`}>
          Trace
        </button>
      ) : (
        <span role="status">
          {sources.length === 0 ? 'is computed without a source column' : `comes from ${sources.map(columnName).join(', ')}`}
        </span>
      )}
      {trace.problem && (
        <span className="field-error" role="alert">
          {' '}
          {trace.problem.message}
        </span>
      )}
    </>
  );
}
