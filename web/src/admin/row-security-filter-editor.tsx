// Editing the row filters of one documented table: each filter a condition, the groups it is
// limited to and the roles it spares. Saved into the table's documentation (one commit, against
// the version read, so a change made meanwhile is reported rather than overwritten). The page says
// it was saved: the editor starts again from the stored version.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { nestedFieldError } from './nested-field-error.ts';
import { ROLE_OPTIONS, type Role } from './roles.ts';

export type TableItem = ResponseOf<'/api/knowledge/{kind}', 'get'>['items'][number];

export interface Rule {
  filter: string;
  groups?: string[];
  exempt_roles?: Role[];
}

interface Row {
  filter: string;
  groups: string;
  exempt: Role[];
}

export const rulesOf = (item: TableItem): Rule[] => {
  const rules = item.data?.['row_filters'];
  return Array.isArray(rules) ? (rules as Rule[]) : [];
};

const toRow = (r: Rule): Row => ({ filter: r.filter, groups: (r.groups ?? []).join(', '), exempt: r.exempt_roles ?? [] });

function toRule(r: Row): Rule {
  const groups = r.groups.split(',').map((g) => g.trim()).filter(Boolean);
  return { filter: r.filter, ...(groups.length ? { groups } : {}), ...(r.exempt.length ? { exempt_roles: r.exempt } : {}) };
}

export function RowFilterEditor({ item, onSaved }: { item: TableItem; onSaved: () => void }) {
  const [rows, setRows] = useState<Row[]>(() => rulesOf(item).map(toRow));
  const change = (i: number, patch: Partial<Row>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = useAction(async () => {
    const body = { ...item.data, row_filters: rows.map(toRule) };
    await call(api.PUT('/api/knowledge/{kind}/{id}', { params: { path: { kind: 'tables', id: item.id } }, body, headers: { 'If-Match': `"${item.version}"` } }));
    onSaved();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Row filters of ${item.id}`}>
      <FormAlert problem={save.problem} />
      {rows.length === 0 && <p>No filter: every member sees every row of this table.</p>}
      {rows.map((r, i) => (
        <FilterFields
          key={i}
          row={r}
          n={i + 1}
          onChange={(patch) => change(i, patch)}
          onRemove={() => setRows((rs) => rs.filter((_, j) => j !== i))}
          error={nestedFieldError(save.problem, `row_filters.${i}`)}
        />
      ))}
      <div className="actions">
        <button type="button" onClick={() => setRows((rs) => [...rs, { filter: '', groups: '', exempt: [] }])}>
          Add a filter
        </button>
        <button type="submit" className="primary">
          Save row filters
        </button>
      </div>
    </form>
  );
}

interface FilterFieldsProps {
  row: Row;
  /** The filter's number on the form, from 1. */
  n: number;
  onChange: (patch: Partial<Row>) => void;
  onRemove: () => void;
  error: string | undefined;
}

function FilterFields({ row: r, n, onChange, onRemove, error }: FilterFieldsProps) {
  const exempt = (role: Role, on: boolean) => onChange({ exempt: on ? [...r.exempt, role] : r.exempt.filter((x) => x !== role) });
  return (
    <fieldset>
      <legend>Filter {n}</legend>
      <Field label={`Condition of filter ${n}`} value={r.filter} onChange={(filter) => onChange({ filter })} error={error} hint="SQL over the table's columns, e.g. country = {{user.country}}." />
      <Field label={`Only for the groups of filter ${n}`} value={r.groups} onChange={(groups) => onChange({ groups })} hint="Group ids, separated by commas; empty for everyone." />
      <p>Not for these roles:</p>
      {ROLE_OPTIONS.map((o) => (
        <label key={o.value} className="check">
          <input type="checkbox" checked={r.exempt.includes(o.value)} onChange={(e) => exempt(o.value, e.target.checked)} /> {o.label}
        </label>
      ))}
      <div className="actions">
        <button type="button" onClick={onRemove}>
          Remove filter {n}
        </button>
      </div>
    </fieldset>
  );
}
