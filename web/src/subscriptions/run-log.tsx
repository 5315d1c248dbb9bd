// A subscription's run log, loaded when opened: when, which slot, how long, to whom, what failed.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';

export function RunLog({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Run log</summary>
      {open && <Runs id={id} />}
    </details>
  );
}

function Runs({ id }: { id: string }) {
  const runs = useLoad((signal) => call(api.GET('/api/subscriptions/{id}/runs', { params: { path: { id }, query: { limit: 50 } }, signal })), id);
  if (runs.problem) return <FormAlert problem={runs.problem} />;
  if (!runs.data) return <p role="status">Loading…</p>;
  if (runs.data.runs.length === 0) return <p className="muted">No run yet.</p>;
  return (
    <table aria-label="Runs">
      <thead>
        <tr>
          <th>Started</th>
          <th>Status</th>
          <th>Took</th>
          <th>Sent to</th>
          <th>Problem</th>
        </tr>
      </thead>
      <tbody>
        {runs.data.runs.map((r) => (
          <tr key={r.id}>
            <td>
              {new Date(r.started_at).toLocaleString()}
              {r.slot_at === null && ' (test)'}
            </td>
            <td>{r.status}</td>
            <td>{r.duration_ms === null ? '' : `${(r.duration_ms / 1000).toFixed(1)} s`}</td>
            <td>{r.deliveries.map((d) => `${d.target}: ${d.status}`).join(', ')}</td>
            <td>{[r.error, ...r.deliveries.map((d) => d.error)].filter(Boolean).join('; ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
