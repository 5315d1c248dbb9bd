// Edit mode's controls: add a saved question or text tile, add a date-range or values filter.
// Places are chosen below the existing tiles; dragging and resizing happen on the grid itself.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { useLoad } from '../ui/use-load.ts';
import type { DashboardFilter, TileInput } from './types.ts';

/** The first free row below the tiles. */
const bottom = (tiles: TileInput[]) => tiles.reduce((y, t) => Math.max(y, t.y + t.h), 0);

export function DashboardEditor({ tiles, filters, onTiles, onFilters }: { tiles: TileInput[]; filters: DashboardFilter[]; onTiles: (t: TileInput[]) => void; onFilters: (f: DashboardFilter[]) => void }) {
  const questions = useLoad((signal) => call(api.GET('/api/saved_questions', { signal })));
  const [question, setQuestion] = useState('');
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<{ type: 'date_range' | 'values'; field: string; label: string }>({ type: 'date_range', field: '', label: '' });
  const place = { x: 0, y: bottom(tiles), w: 6, h: 5 };
  return (
    <div className="dashboard-editor" aria-label="Edit the dashboard">
      <label>
        Saved question{' '}
        <select value={question} onChange={(e) => setQuestion(e.target.value)}>
          <option value="">Choose…</option>
          {questions.data?.questions.map((q) => (
            <option key={q.id} value={q.id}>
              {q.title}
            </option>
          ))}
        </select>
      </label>
      <button type="button" disabled={!question} onClick={() => (onTiles([...tiles, { saved_question_id: question, ...place }]), setQuestion(''))}>
        Add question tile
      </button>
      <label>
        Text <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="button" disabled={!text.trim()} onClick={() => (onTiles([...tiles, { text, ...place, w: 12, h: 2 }]), setText(''))}>
        Add text tile
      </button>
      <fieldset>
        <legend>New filter</legend>
        <select aria-label="Filter type" value={filter.type} onChange={(e) => setFilter({ ...filter, type: e.target.value as 'date_range' | 'values' })}>
          <option value="date_range">Date range</option>
          <option value="values">Values</option>
        </select>
        <label>
          Field <input value={filter.field} onChange={(e) => setFilter({ ...filter, field: e.target.value })} />
        </label>
        <label>
          Label <input value={filter.label} onChange={(e) => setFilter({ ...filter, label: e.target.value })} />
        </label>
        <button
          type="button"
          disabled={!filter.field.trim()}
          onClick={() => {
            const id = `f${Date.now().toString(36)}`;
            onFilters([...filters, { id, type: filter.type, field: filter.field.trim(), ...(filter.label.trim() ? { label: filter.label.trim() } : {}) }]);
            setFilter({ type: 'date_range', field: '', label: '' });
          }}
        >
          Add filter
        </button>
      </fieldset>
      {filters.length > 0 && (
        <ul className="filter-list" aria-label="Filters of the dashboard">
          {filters.map((f) => (
            <li key={f.id}>
              {f.label ?? f.field} ({f.type === 'date_range' ? 'date range' : 'values'} on {f.field}){' '}
              <button type="button" onClick={() => onFilters(filters.filter((x) => x.id !== f.id))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
