// A saved question's history: every version, newest first, with when it was saved and what it held
// (title, SQL, chart or not), read when the person opens it. Edits never overwrite a version.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useMe } from '../session/session.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

type Version = ResponseOf<'/api/saved_questions/{id}/versions', 'get'>['versions'][number];

export function QuestionHistory({ questionId, current }: { questionId: string; current: number }) {
  const me = useMe();
  const [versions, setVersions] = useState<Version[] | undefined>();
  const load = useAction(async () => setVersions((await call(api.GET('/api/saved_questions/{id}/versions', { params: { path: { id: questionId } } }))).versions));
  return (
    <details className="question-history" onToggle={(e) => e.currentTarget.open && !load.pending && void load.run()}>
      <summary>History ({current === 1 ? 'one version' : `${current} versions`})</summary>
      {load.pending && !versions && <p role="status">Reading the versions…</p>}
      <FormAlert problem={load.problem} />
      {versions && (
        <ol reversed aria-label="Versions">
          {versions.map((v) => (
            <li key={v.version}>
              <p>
                <strong>Version {v.version}</strong>
                {v.version === current && ' (current)'} · {new Date(v.edited_at).toLocaleString()}
                {v.edited_by === me.user_id && ' · by you'} · {v.title}
                {v.chart ? ' · with a chart' : ''}
              </p>
              <pre>
                <code>{v.sql}</code>
              </pre>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
