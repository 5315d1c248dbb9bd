// /dashboards/:id: the tiles on their grid, each run as the person viewing (with their permissions
// and row security) and with the filter bar's values; refresh by hand or on an interval; edit mode
// moves and resizes tiles, adds question and text tiles and filters; share links; subscriptions that
// send all its tiles on a schedule. Edit and Share are offered to whom the server lets do them (the
// owner, or an admin for an organization dashboard); Save names the version the edit was made from,
// so that someone else's newer layout is never undone unseen (the server answers 409).
import { useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useMe } from '../session/session.tsx';
import { SubscribeButton } from '../subscriptions/subscribe-dialog.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { DashboardEditor } from './dashboard-editor.tsx';
import { DashboardGrid, type Place } from './dashboard-grid.tsx';
import { DashboardShare } from './dashboard-share.tsx';
import { defaultValues, FilterBar } from './filter-bar.tsx';
import { RefreshControls } from './refresh-controls.tsx';
import { batchedRun } from './tile-batch.ts';
import { TileView } from './tile-view.tsx';
import type { Dashboard, DashboardFilter, FilterValue, RunTile, TileInput } from './types.ts';

/** The tiles as an edit writes them back, every one with an id (new ones get theirs here). */
const inputsOf = (d: Dashboard): TileInput[] => d.tiles.map((t) => (t.saved_question_id === null ? { id: t.id, text: t.text ?? '', x: t.x, y: t.y, w: t.w, h: t.h } : { id: t.id, saved_question_id: t.saved_question_id, x: t.x, y: t.y, w: t.w, h: t.h }));
let fresh = 0;
const withId = (t: TileInput): TileInput & { id: string } => ({ ...t, id: t.id ?? `n${Date.now().toString(36)}${++fresh}` });

/** Whether the person may edit and share the dashboard: the server's rule, so that no edit of theirs is refused on Save. */
const mayEdit = (me: { user_id: string; role: string }, d: Pick<Dashboard, 'owner_id' | 'visibility'>) => d.owner_id === me.user_id || (d.visibility === 'organization' && me.role === 'admin');

export function DashboardPage() {
  const { id = '' } = useParams();
  const me = useMe();
  const loaded = useLoad((signal) => call(api.GET('/api/dashboards/{id}', { params: { path: { id } }, signal })), id);
  const d = loaded.data;
  useDocumentTitle(d?.title ?? 'Dashboard');
  const [applied, setApplied] = useState<FilterValue[] | undefined>();
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  const [draft, setDraft] = useState<{ tiles: (TileInput & { id: string })[]; filters: DashboardFilter[]; version: number } | undefined>();
  const [sharing, setSharing] = useState(false);
  // The tiles that start together run as one request, each shown as its line arrives.
  const run: RunTile = useMemo(
    () =>
      batchedRun(`/api/dashboards/${encodeURIComponent(id)}/run`, (tileId, filters, signal, refresh) =>
        call(api.POST('/api/dashboards/{id}/tiles/{tile_id}/run', { params: { path: { id, tile_id: tileId } }, body: { filters, refresh }, signal })),
      ),
    [id],
  );
  const save = useAction(async () => {
    if (!draft) return;
    // The version the draft was made from: the one loaded, or after a save the one saved.
    const updated = await call(api.PATCH('/api/dashboards/{id}', { params: { path: { id } }, body: { tiles: draft.tiles, filters: draft.filters, version: draft.version } }));
    loaded.update(() => updated);
    setApplied(undefined);
    setDraft(undefined);
  });
  if (!d) return <section className="dashboard-page">{loaded.problem ? <FormAlert problem={loaded.problem} /> : <p role="status">Loading…</p>}</section>;
  const values = applied ?? defaultValues(d.filters);
  const editing = draft !== undefined;
  const editable = mayEdit(me, d);
  const places: Place[] = editing ? draft.tiles : d.tiles;
  const titleOf = (tileId: string) => d.tiles.find((t) => t.id === tileId)?.question?.title;
  return (
    <section className="dashboard-page" aria-labelledby="dashboard-title">
      <div className="dashboard-head">
        <h1 id="dashboard-title">{d.title}</h1>
        <span className="spacer" />
        {!editing && <RefreshControls onRefresh={refresh} />}
        {!editing && editable && (
          <button type="button" onClick={() => setDraft({ tiles: inputsOf(d).map(withId), filters: d.filters, version: d.version })}>
            Edit
          </button>
        )}
        {!editing && editable && (
          <button type="button" aria-expanded={sharing} onClick={() => setSharing((s) => !s)}>
            Share
          </button>
        )}
        {!editing && <SubscribeButton dashboardId={d.id} />}
      </div>
      {d.description && <p>{d.description}</p>}
      {sharing && !editing && editable && <DashboardShare id={d.id} />}
      <FormAlert problem={save.problem} />
      {editing ? (
        <>
          <DashboardEditor tiles={draft.tiles} filters={draft.filters} onTiles={(tiles) => setDraft({ ...draft, tiles: tiles.map(withId) })} onFilters={(filters) => setDraft({ ...draft, filters })} />
          <div className="dashboard-head">
            <button type="button" disabled={save.pending} onClick={() => void save.run()}>
              Save
            </button>
            <button type="button" onClick={() => setDraft(undefined)}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <FilterBar key={JSON.stringify(values)} filters={d.filters} applied={values} onApply={setApplied} />
      )}
      {places.length === 0 && <p className="muted">No tiles yet: use Edit to add saved questions and text.</p>}
      <DashboardGrid places={places} editing={editing} onLayout={(moved) => draft && setDraft({ ...draft, tiles: draft.tiles.map((t) => ({ ...t, ...moved.find((m) => m.id === t.id) })) })}>
        {(tileId) => {
          if (!editing) {
            const tile = d.tiles.find((t) => t.id === tileId)!;
            return <TileView tile={tile} run={run} filters={values} tick={tick} />;
          }
          const t = draft.tiles.find((x) => x.id === tileId)!;
          return (
            <div className="tile tile-editing">
              {/* The button first, beside the title: a long text scrolls under it instead of hiding it. */}
              <header>
                <strong>{'text' in t ? 'Text' : (titleOf(tileId) ?? 'Saved question')}</strong>
                <span className="spacer" />
                <button type="button" onClick={() => setDraft({ ...draft, tiles: draft.tiles.filter((x) => x.id !== tileId) })}>
                  Remove tile
                </button>
              </header>
              {'text' in t && <p>{t.text}</p>}
            </div>
          );
        }}
      </DashboardGrid>
    </section>
  );
}
