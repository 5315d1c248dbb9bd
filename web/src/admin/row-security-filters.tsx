// The row filters written in the table documentation, table by table, with whom each applies to;
// and the editor of one table's filters, chosen by a search among the documented tables. Both ask
// the server for what they show (the tables with filters, the tables matching a search), a page
// at a time: an organization may document 10,000 tables.
import { useRef, useState } from 'react';
import { api, call } from '../api/client.ts';
import { useActiveEnvironment } from '../api/environment.ts';
import { ProductionLocked, useProductionLocked } from '../knowledge/production-lock.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { PageButtons, usePages } from './pages.tsx';
import { RowFilterEditor, rulesOf, type Rule } from './row-security-filter-editor.tsx';
import { TablePicker } from './row-security-table-picker.tsx';

const PAGE = 50;

/** Who a filter applies to, in words. */
function appliesTo(r: Rule): string {
  const who = r.groups?.length ? `members of ${r.groups.join(', ')}` : 'everyone';
  return r.exempt_roles?.length ? `${who} except the roles ${r.exempt_roles.join(', ')}` : who;
}

export function RowFilterList() {
  const env = useActiveEnvironment();
  const locked = useProductionLocked();
  const scope = env?.id ?? '';
  const heading = useRef<HTMLHeadingElement>(null);
  const pages = usePages(heading);
  const cursor = pages.cursor;
  const filtered = useLoad(
    (signal) => call(api.GET('/api/knowledge/{kind}', { params: { path: { kind: 'tables' }, query: { row_filters: 'true', cursor, limit: PAGE } }, signal })),
    `${scope}\n${cursor ?? ''}`,
  );
  const [chosen, setChosen] = useState('');
  const editing = useLoad(
    (signal) => (chosen ? call(api.GET('/api/knowledge/{kind}/{id}', { params: { path: { kind: 'tables', id: chosen } }, signal })) : Promise.resolve(undefined)),
    `${scope}\n${chosen}`,
  );
  const [done, setDone] = useState('');
  const saved = (id: string) => {
    setDone(`Row filters of ${id} saved.`);
    void filtered.reload();
    void editing.reload();
  };
  const withFilters = filtered.data?.items ?? [];
  const item = editing.data?.id === chosen ? editing.data : undefined;
  return (
    <section aria-labelledby="row-filters-title">
      <h2 id="row-filters-title" ref={heading} tabIndex={-1}>
        Row filters
      </h2>
      <p>
        Written in each table's documentation {env ? `(here: the environment ${env.name})` : '(here: production)'}. A filter reads a member's attributes as{' '}
        <code>{'{{user.country}}'}</code> and groups as <code>{'{{user.groups}}'}</code>; a member lacking a value it needs sees no rows. Attributes are set on the Members page.
      </p>
      <FormAlert problem={filtered.problem} />
      {done && <Note>{done}</Note>}
      {filtered.loading && !filtered.data && <p role="status">Loading…</p>}
      {filtered.data && filtered.data.total === 0 && <p>No table has a row filter: every member sees every row of every documented table.</p>}
      {withFilters.length > 0 && (
        <>
          <p className="muted">
            {filtered.data!.total} {filtered.data!.total === 1 ? 'table has' : 'tables have'} row filters.
          </p>
          <ul className="cards" aria-label="Tables with row filters">
            {withFilters.map((t) => (
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
        </>
      )}
      <PageButtons label="Pages of tables with row filters" pages={pages} nextCursor={filtered.data?.next_cursor} previousText="Previous page" nextText="Next page" />
      {/* Filters live in the knowledge: where production changes only through environments, in one. */}
      <h3>Change the filters of a table</h3>
      {locked ? (
        <ProductionLocked change="Row filters" />
      ) : (
        <>
          <TablePicker
            scope={scope}
            chosen={chosen}
            onChoose={(id) => {
              setDone('');
              setChosen(id);
            }}
          />
          <FormAlert problem={editing.problem} />
          {/* Keyed by version: after a save the editor starts again from what was stored. */}
          {item && <RowFilterEditor key={`${item.id}@${item.version}`} item={item} onSaved={() => saved(item.id)} />}
        </>
      )}
    </section>
  );
}
