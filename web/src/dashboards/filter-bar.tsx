// The dashboard's filters as controls: a date range (two days) or dimension values (comma-separated).
// The values apply on "Apply", so typing does not run every tile on each key.
import { useState } from 'react';
import type { DashboardFilter, FilterValue } from './types.ts';

/** The values a dashboard opens with: each filter's default. */
export function defaultValues(filters: DashboardFilter[]): FilterValue[] {
  return filters.map((f) => (f.type === 'date_range' ? { id: f.id, from: f.default?.from ?? null, to: f.default?.to ?? null } : { id: f.id, values: f.default ?? [] }));
}

const valuesText = (v: FilterValue | undefined) => (v?.values ?? []).join(', ');

export function FilterBar({ filters, applied, onApply }: { filters: DashboardFilter[]; applied: FilterValue[]; onApply: (values: FilterValue[]) => void }) {
  const [draft, setDraft] = useState<Record<string, { from?: string; to?: string; text?: string }>>({});
  if (filters.length === 0) return null;
  const current = (id: string) => applied.find((v) => v.id === id);
  const apply = () =>
    onApply(
      filters.map((f) => {
        const d = draft[f.id] ?? {};
        const now = current(f.id);
        if (f.type === 'date_range') return { id: f.id, from: (d.from ?? now?.from) || null, to: (d.to ?? now?.to) || null };
        const text = d.text ?? valuesText(now);
        return { id: f.id, values: text.split(',').map((s) => s.trim()).filter(Boolean) };
      }),
    );
  const set = (id: string, part: { from?: string; to?: string; text?: string }) => setDraft((d) => ({ ...d, [id]: { ...d[id], ...part } }));
  return (
    <form
      className="filter-bar"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      {filters.map((f) => {
        const label = f.label ?? f.field;
        if (f.type === 'date_range')
          return (
            <fieldset key={f.id}>
              <legend>{label}</legend>
              <label>
                From <input type="date" value={draft[f.id]?.from ?? current(f.id)?.from ?? ''} onChange={(e) => set(f.id, { from: e.target.value })} />
              </label>
              <label>
                To <input type="date" value={draft[f.id]?.to ?? current(f.id)?.to ?? ''} onChange={(e) => set(f.id, { to: e.target.value })} />
              </label>
            </fieldset>
          );
        return (
          <label key={f.id}>
            {label} <input type="text" placeholder="Any (comma-separated values)" value={draft[f.id]?.text ?? valuesText(current(f.id))} onChange={(e) => set(f.id, { text: e.target.value })} />
          </label>
        );
      })}
      <button type="submit">Apply filters</button>
    </form>
  );
}
