// The row filters written in the table documentation, table by table, with whom each applies to;
// and the editor of one table's filters, chosen among the documented tables.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { useActiveEnvironment } from '../api/environment.ts';
import { ProductionLocked, useProductionLocked } from '../knowledge/production-lock.tsx';
import { SelectField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { RowFilterEditor, rulesOf, type Rule } from './row-security-filter-editor.tsx';

/** Who a filter applies to, in words. */
function appliesTo(r: Rule): string {
  const who = r.groups?.length ? `members of ${r.groups.join(', ')}` : 'everyone';
  return r.exempt_roles?.length ? `${who} except the roles ${r.exempt_roles.join(', ')}` : who;
}

export function RowFilterList() {
  const env = useActiveEnvironment();
  const locked = useProductionLocked();
  const tables = useLoad((signal) => call(api.GET('/api/knowledge/{kind}', { params: { path: { kind: 'tables' } }, signal })), env?.id ?? '');
  const [chosen, setChosen] = useState('');
  const [done, setDone] = useState('');
  const items = tables.data?.items ?? [];
  const filtered = items.filter((item) => rulesOf(item).length > 0);
  const editing = items.find((item) => item.id === chosen);
  const saved = (id: string) => {
    setDone(`Row filters of ${id} saved.`);
    void tables.reload();
  };
  return (
    <section aria-labelledby="row-filters-title">
      <h2 id="row-filters-title">Row filters</h2>
      <p>
        Written in each table's documentation {env ? `(here: the environment ${env.name})` : '(here: production)'}. A filter reads a member's attributes as{' '}
        <code>{'{{user.country}}'}</code> and groups as <code>{'{{user.groups}}'}</code>; a member lacking a value it needs sees no rows. Attributes are set on the Members page.
      </p>
      <FormAlert problem={tables.problem} />
      {done && <Note>{done}</Note>}
      {tables.loading && !tables.data && <p role="status">Loading…</p>}
      {tables.data && filtered.length === 0 && <p>No table has a row filter: every member sees every row of every documented table.</p>}
      {filtered.length > 0 && (
        <ul className="cards" aria-label="Tables with row filters">
          {filtered.map((t) => (
            <li key={t.id} className="card" aria-label={`Row filters of ${t.id}`}>
              <h3>{t.id}</h3>
              <ul>
                {rulesOf(t).map((r, i) => (
                  <li key={i}>
                    <code>{r.filter}</code> for {appliesTo(r)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {/* Filters live in the knowledge: where production changes only through environments, in one. */}
      {items.length > 0 && locked && <ProductionLocked change="Row filters" />}
      {items.length > 0 && !locked && (
        <>
          <h3>Change the filters of a table</h3>
          <SelectField
            label="Table"
            value={chosen}
            onChange={(id) => {
              setDone('');
              setChosen(id);
            }}
            options={[{ value: '', label: 'Choose a table' }, ...items.map((i) => ({ value: i.id, label: i.id }))]}
          />
          {/* Keyed by version: after a save the editor starts again from what was stored. */}
          {editing && <RowFilterEditor key={`${editing.id}@${editing.version}`} item={editing} onSaved={() => saved(editing.id)} />}
        </>
      )}
    </section>
  );
}
