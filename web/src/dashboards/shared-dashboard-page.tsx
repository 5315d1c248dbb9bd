// /shared-dashboard/:shareId: a dashboard someone shared, for anyone with the link and without
// signing in. Read-only; its tiles run with the permissions of the person who shared it, and the
// page says so.
import { useCallback, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { DashboardGrid } from './dashboard-grid.tsx';
import { defaultValues, FilterBar } from './filter-bar.tsx';
import { RefreshControls } from './refresh-controls.tsx';
import { batchedRun } from './tile-batch.ts';
import { TileView } from './tile-view.tsx';
import type { FilterValue, RunTile } from './types.ts';

export function SharedDashboardPage() {
  const shareId = useParams().shareId ?? '';
  const loaded = useLoad((signal) => call(api.GET('/api/dashboard_shares/{share_id}', { params: { path: { share_id: shareId } }, signal })), shareId);
  const d = loaded.data;
  useDocumentTitle(d ? `${d.title} (shared)` : 'Shared dashboard');
  const [applied, setApplied] = useState<FilterValue[] | undefined>();
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  const run: RunTile = useMemo(
    () =>
      batchedRun(`/api/dashboard_shares/${encodeURIComponent(shareId)}/run`, (tileId, filters, signal, refresh) =>
        call(api.POST('/api/dashboard_shares/{share_id}/tiles/{tile_id}/run', { params: { path: { share_id: shareId, tile_id: tileId } }, body: { filters, refresh }, signal })),
      ),
    [shareId],
  );
  const values = applied ?? (d ? defaultValues(d.filters) : []);
  return (
    <div className="shared-page">
      <header className="topbar">
        <Link to="/" className="brand" style={{ margin: 0 }} aria-label="Sextant home">
          <img src="/favicon.svg" alt="" width={22} height={22} /> Sextant
        </Link>
      </header>
      <section className="dashboard-page" aria-labelledby="dashboard-title">
        <FormAlert problem={loaded.problem} />
        {!d && !loaded.problem && <p role="status">Loading…</p>}
        {d && (
          <>
            <div className="dashboard-head">
              <h1 id="dashboard-title">{d.title}</h1>
              <span className="spacer" />
              <RefreshControls onRefresh={refresh} />
            </div>
            <p className="alert info" role="note">
              A shared, read-only dashboard: its data is read with the permissions of the person who shared it, not yours.
            </p>
            {d.description && <p>{d.description}</p>}
            <FilterBar key={JSON.stringify(values)} filters={d.filters} applied={values} onApply={setApplied} />
            <DashboardGrid places={d.tiles} editing={false} onLayout={() => undefined}>
              {(tileId) => <TileView tile={d.tiles.find((t) => t.id === tileId)!} run={run} filters={values} tick={tick} />}
            </DashboardGrid>
          </>
        )}
      </section>
    </div>
  );
}
