// The row filters written in the table documentation, table by table, each with whom it applies to
// and a link to the table's page, where filters are edited like the rest of its documentation.
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { useActiveEnvironment } from '../api/environment.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';

interface Rule {
  filter: string;
  groups?: string[];
  exempt_roles?: string[];
}

/** Who a filter applies to, in words. */
function appliesTo(r: Rule): string {
  const who = r.groups?.length ? `members of ${r.groups.join(', ')}` : 'everyone';
  return r.exempt_roles?.length ? `${who} except the roles ${r.exempt_roles.join(', ')}` : who;
}

export function RowFilterList() {
  const env = useActiveEnvironment();
  const tables = useLoad((signal) => call(api.GET('/api/knowledge/{kind}', { params: { path: { kind: 'tables' } }, signal })), env?.id ?? '');
  const filtered = (tables.data?.items ?? []).flatMap((item) => {
    const rules = (item.data?.['row_filters'] ?? []) as Rule[];
    return Array.isArray(rules) && rules.length > 0 ? [{ id: item.id, rules }] : [];
  });
  return (
    <section aria-labelledby="row-filters-title">
      <h2 id="row-filters-title">Row filters</h2>
      <p>
        Written in each table's documentation {env ? `(here: the environment ${env.name})` : '(here: production)'}. A filter reads a member's attributes as{' '}
        <code>{'{{user.country}}'}</code> and groups as <code>{'{{user.groups}}'}</code>; a member lacking a value it needs sees no rows. Attributes are set on the Members page.
      </p>
      <FormAlert problem={tables.problem} />
      {tables.loading && !tables.data && <p role="status">Loading…</p>}
      {tables.data && filtered.length === 0 && <p>No table has a row filter: every member sees every row of every documented table.</p>}
      {filtered.length > 0 && (
        <ul className="cards" aria-label="Tables with row filters">
          {filtered.map((t) => (
            <li key={t.id} className="card" aria-label={`Row filters of ${t.id}`}>
              <h3>
                <Link to={`/knowledge/items/tables/${encodeURIComponent(t.id)}`}>{t.id}</Link>
              </h3>
              <ul>
                {t.rules.map((r, i) => (
                  <li key={i}>
                    <code>{r.filter}</code> for {appliesTo(r)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
