// Syncing a connection's table documentation: the server reads schemas, tables and columns in one
// request (no steps to count, so the progress shown is that it runs), then the summary of what it
// added, updated and kept. It writes where the admin works: production, or the active environment (the
// only choice where the organization changes production only through environments: there the button
// starts an environment and syncs into it).
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { ENVIRONMENT_HEADER, useActiveEnvironment } from '../api/environment.ts';
import type { ResponseOf } from '../api/types.ts';
import { startEnvironmentFor, useProductionLocked } from '../knowledge/production-lock.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { Connection } from './connections-words.ts';

type SyncResult = ResponseOf<'/api/sync/{connection_type}/{connection_id}', 'post'>;

/** "3 tables: a, b, c" with the first few names; the rest counted. */
function tablesLine(label: string, names: string[]) {
  const shown = names.slice(0, 10).join(', ');
  const more = names.length > 10 ? ` and ${names.length - 10} more` : '';
  return `${label}: ${names.length}${names.length ? ` (${shown}${more})` : ''}`;
}

export function ConnectionSync({ connection: c }: { connection: Connection }) {
  const env = useActiveEnvironment();
  const locked = useProductionLocked();
  const where = env ? `the environment ${env.name}` : 'production';
  const [result, setResult] = useState<SyncResult | undefined>();
  const sync = useAction(async () => {
    setResult(undefined);
    // Where production changes only through environments, the sync starts one and goes into it, to review and merge.
    const into = locked ? await startEnvironmentFor(`Sync ${c.name}`) : undefined;
    const path = { connection_type: c.type, connection_id: c.id };
    const headers = into ? { [ENVIRONMENT_HEADER]: into.id } : {};
    setResult(await call(api.POST('/api/sync/{connection_type}/{connection_id}', { params: { path }, headers, body: {} })));
  });
  return (
    <div>
      {locked ? (
        <button
          type="button"
          aria-label={`Sync table documentation of ${c.name} into a new environment`}
          title="Production changes only through environments: the sync goes into a new environment, to review and merge"
          onClick={() => !sync.pending && void sync.run()}
        >
          Sync into a new environment
        </button>
      ) : (
        <button type="button" aria-label={`Sync table documentation of ${c.name}`} onClick={() => !sync.pending && void sync.run()}>
          Sync table documentation
        </button>
      )}
      {sync.pending && (
        <p role="status">
          <progress aria-label={`Syncing ${c.name}`} /> Reading the schemas, tables and columns of {c.name} into {where}…
        </p>
      )}
      <FormAlert problem={sync.problem} />
      {result && (
        <div className="alert ok" role="status" aria-label={`Sync of ${c.name}`}>
          <p>
            Synced {result.tables} table{result.tables === 1 ? '' : 's'} ({result.columns} columns) into {where}. What people wrote (descriptions, synonyms, row filters) is kept.
          </p>
          <ul>
            <li>{tablesLine('Added', result.added)}</li>
            <li>{tablesLine('Updated (columns changed)', result.updated)}</li>
            <li>{tablesLine('Kept as they were', result.kept)}</li>
          </ul>
          {result.flagged_views.length > 0 && (
            <p>
              Views that read a table with row filters and have none of their own, refused to the members those filters apply to until you add one:{' '}
              {result.flagged_views.map((v) => `${v.view} (reads ${v.reads})`).join(', ')}.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
