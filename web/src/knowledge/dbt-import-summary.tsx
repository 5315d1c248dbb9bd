// What an import did: the environment it wrote to, per kind how many items were created, updated,
// left unchanged and proposed for deletion, every node it skipped and why, the files a person had
// edited (left as they are), and the way to the environment's diff against production.
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useLoad } from '../ui/use-load.ts';
import { environmentPath } from './environments-page.tsx';

export type ImportSummary = ResponseOf<'/api/import/dbt', 'post'>;

const KIND_NAMES: Record<keyof ImportSummary['counts'], string> = { tables: 'Table documentation', relationships: 'Relationships', reports: 'Reports' };

export function DbtImportSummary({ summary, onAgain }: { summary: ImportSummary; onAgain: () => void }) {
  const env = useLoad((signal) => call(api.GET('/api/environments/{id}', { params: { path: { id: summary.environment_id } }, signal })), summary.environment_id);
  const name = env.data?.name ?? summary.environment_id;
  return (
    <section aria-labelledby="dbt-summary-title" className="import-summary">
      <h2 id="dbt-summary-title">Imported {summary.project}</h2>
      <p role="status">
        {summary.commit ? 'The import is in' : 'Nothing changed: the environment already holds this import, in'} {summary.environment_created ? 'the new environment' : 'environment'}{' '}
        <strong>{name}</strong> (<code>{summary.environment_id}</code>). Production is unchanged until you merge it.
      </p>
      <div className="actions">
        <Link className="button primary" to={`${environmentPath(summary.environment_id)}#diff-title`}>
          Review the changes against production
        </Link>
        <button type="button" onClick={onAgain}>
          Import other files
        </button>
      </div>
      <Counts summary={summary} />
      <Skipped skipped={summary.skipped} />
      <Conflicts conflicts={summary.conflicts} />
    </section>
  );
}

function Counts({ summary }: { summary: ImportSummary }) {
  const kinds = Object.keys(KIND_NAMES) as (keyof ImportSummary['counts'])[];
  return (
    <>
      <h3>Items</h3>
      <div className="table-scroll">
        <table className="data-table" aria-label="Items by kind">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Created</th>
              <th scope="col">Updated</th>
              <th scope="col">Unchanged</th>
              <th scope="col">Deleted</th>
            </tr>
          </thead>
          <tbody>
            {kinds.map((kind) => (
              <tr key={kind}>
                <th scope="row">{KIND_NAMES[kind]}</th>
                <td className="num">{summary.counts[kind].created}</td>
                <td className="num">{summary.counts[kind].updated}</td>
                <td className="num">{summary.counts[kind].unchanged}</td>
                <td className="num">{summary.counts[kind].deleted}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        {summary.metrics} governed {summary.metrics === 1 ? 'metric' : 'metrics'} on the table documentation. Deleted items are proposed for deletion in the
        environment only.
      </p>
    </>
  );
}

function Skipped({ skipped }: { skipped: ImportSummary['skipped'] }) {
  return (
    <>
      <h3>Skipped ({skipped.length})</h3>
      {skipped.length === 0 ? (
        <p>Every node was imported.</p>
      ) : (
        <ul aria-label="Skipped nodes" className="import-list">
          {skipped.map((s, i) => (
            <li key={`${s.unique_id}:${i}`}>
              <code>{s.unique_id}</code>: {s.reason}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Conflicts({ conflicts }: { conflicts: ImportSummary['conflicts'] }) {
  if (conflicts.length === 0) return null;
  return (
    <>
      <h3>Conflicts ({conflicts.length})</h3>
      <p role="alert">Someone edited these items after an earlier import. They were left as they are: compare them with the dbt project in the environment.</p>
      <ul aria-label="Conflicts" className="import-list">
        {conflicts.map((c) => (
          <li key={c.path}>
            <code>{c.path}</code> (<code>{c.unique_id}</code>): {c.reason}
          </li>
        ))}
      </ul>
    </>
  );
}
