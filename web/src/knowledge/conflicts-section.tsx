// The conflicts a merge would meet, and their resolution: for each conflicting file, keep the
// environment's version, production's, merge it field by field (both sides shown), or edit the
// merged text; then production's changes come into the environment in one commit, after which the
// merge applies. Without conflicts, production's changes can be brought in the same way.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { Loaded } from '../ui/use-load.ts';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { initialChoice, resolutionOf, type ConflictFile, type FileChoice } from './conflict-resolution.ts';
import { FileResolver } from './file-resolver.tsx';
import type { ResponseOf } from '../api/types.ts';

export type Conflicts = ResponseOf<'/api/environments/{id}/conflicts', 'get'>;

interface ConflictsSectionProps {
  envId: string;
  conflicts: Loaded<Conflicts>;
  /** After production's changes came in: the diff, the conflicts and the merge are read again. */
  onUpdated: () => void;
}

export function ConflictsSection({ envId, conflicts, onUpdated }: ConflictsSectionProps) {
  const [choices, setChoices] = useState<Record<string, FileChoice>>({});
  const [updated, setUpdated] = useState(false);
  const files = conflicts.data?.files ?? [];
  const choiceOf = (f: ConflictFile) => choices[f.path] ?? initialChoice(f);
  const results = files.map((f) => resolutionOf(f, choiceOf(f)));
  const missing = results.filter((r): r is string => typeof r === 'string');
  const update = useAction(async () => {
    const resolutions = results.filter((r) => typeof r !== 'string');
    await call(api.POST('/api/environments/{id}/update', { params: { path: { id: envId } }, body: resolutions.length > 0 ? { resolutions } : {} }));
    setChoices({});
    setUpdated(true);
    onUpdated();
  });
  const data = conflicts.data;
  return (
    <section aria-labelledby="conflicts-title">
      <h2 id="conflicts-title">Conflicts with production</h2>
      <FormAlert problem={conflicts.problem} />
      {updated && <Note>Production’s changes are in this environment now.</Note>}
      {data &&
        (data.mergeable ? (
          <>
            <p>No conflict: production and this environment changed different things.</p>
            {data.merge === 'merged' && (
              <div className="actions">
                <button type="button" disabled={update.pending} onClick={() => void update.run()}>
                  Bring in production’s changes
                </button>
              </div>
            )}
          </>
        ) : (
          <>
            <p role="alert">
              Production changed these files differently since this environment started. Merging waits until each one is resolved: keep one side, or merge
              them.
            </p>
            {files.map((f) => (
              <FileResolver key={f.path} file={f} choice={choiceOf(f)} onChange={(c) => setChoices((all) => ({ ...all, [f.path]: c }))} />
            ))}
            {missing.length > 0 && <p className="muted">{missing.join(' ')}</p>}
            <div className="actions">
              <button type="button" disabled={update.pending || missing.length > 0} onClick={() => void update.run()}>
                Resolve and bring in production’s changes
              </button>
            </div>
          </>
        ))}
      <FormAlert problem={update.problem} />
    </section>
  );
}
