// The environment's changes against production, file by file with the changed lines.
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';

type FileDiff = ResponseOf<'/api/environments/{id}/diff', 'get'>['files'][number];

export function DiffSection({ envId, version }: { envId: string; version: number }) {
  const diff = useLoad(
    (signal) => call(api.GET('/api/environments/{id}/diff', { params: { path: { id: envId }, query: { lines: 'true' } }, signal })),
    `${envId}:${version}`,
  );
  return (
    <section aria-labelledby="diff-title">
      <h2 id="diff-title">Changes against production</h2>
      <FormAlert problem={diff.problem} />
      {diff.loading && !diff.data && <p role="status">Loading…</p>}
      {diff.data && (diff.data.files.length === 0 ? <p>No change yet: this environment holds what production holds.</p> : diff.data.files.map((f) => <FileChanges key={f.path} file={f} />))}
    </section>
  );
}

function FileChanges({ file }: { file: FileDiff }) {
  return (
    <article className="diff-file" aria-label={`${file.path}, ${file.status}`}>
      <h3>
        <code>{file.path}</code> <span className={`status ${file.status}`}>{file.status}</span>
      </h3>
      {file.lines_omitted ? (
        <p className="muted">Too large to show its lines.</p>
      ) : (
        <pre className="diff-lines" tabIndex={0} aria-label={`Changed lines of ${file.path}`}>
          {(file.hunks ?? []).map((h) => (
            <code key={`${h.old_start}:${h.new_start}`}>
              <span className="hunk">{`@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@`}</span>
              {h.lines.map((line, i) => <Line key={i} line={line} />)}
            </code>
          ))}
        </pre>
      )}
    </article>
  );
}

/** One line: added and removed lines are marked for screen readers too, not only by colour. */
function Line({ line }: { line: string }) {
  const text = line.slice(1);
  if (line.startsWith('+'))
    return (
      <ins>
        <span className="visually-hidden">Added: </span>+{text}
      </ins>
    );
  if (line.startsWith('-'))
    return (
      <del>
        <span className="visually-hidden">Removed: </span>-{text}
      </del>
    );
  return <span> {text}</span>;
}
