// /admin/audit: the organization's audit log, filtered (action, actor, target, outcome, dates),
// newest first in keyset pages, with links that download the same filter as JSON lines or CSV. A member
// targeted by an entry is named as on the other member pages.
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, call, type paths } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useMembers, type Members } from './member-picker.tsx';
import { PageButtons, usePages } from './pages.tsx';

interface Filters {
  action: string;
  /** An email, or a user id. */
  actor: string;
  target_id: string;
  outcome: string;
  from: string;
  to: string;
}
const EMPTY: Filters = { action: '', actor: '', target_id: '', outcome: '', from: '', to: '' };

/** The filled filters only, as query parameters: the actor by email when it is one, else by id. */
function given({ actor, ...f }: Filters): Record<string, string> {
  const filled = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== ''));
  const who = actor.trim();
  return who === '' ? filled : { ...filled, [who.includes('@') ? 'actor_email' : 'actor_id']: who };
}

export function AuditPage() {
  useDocumentTitle('Audit log');
  const members = useMembers();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const heading = useRef<HTMLHeadingElement>(null);
  const pages = usePages(heading);
  const cursor = pages.cursor;
  const query = given(filters) as Omit<AuditQuery, 'cursor' | 'limit'>;
  const log = useLoad(
    (signal) => call(api.GET('/api/admin/audit', { params: { query: { ...query, cursor, limit: 50 } }, signal })),
    JSON.stringify([query, cursor]),
  );
  const set = (name: keyof Filters) => (value: string) => setDraft((d) => ({ ...d, [name]: value }));
  const apply = (e: FormEvent) => {
    e.preventDefault();
    pages.reset();
    setFilters(draft);
  };
  const exportUrl = (format: string) => `/api/admin/audit/export?${new URLSearchParams({ ...given(filters), format }).toString()}`;
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Audit log
      </h1>
      <form onSubmit={apply} noValidate aria-label="Audit log filters">
        <div className="filter-grid">
          <Field label="Action" value={draft.action} onChange={set('action')} error={log.problem?.fields['action']} placeholder="e.g. member_role_changed" />
          <Field label="Actor" value={draft.actor} onChange={set('actor')} error={log.problem?.fields['actor_email'] ?? log.problem?.fields['actor_id']} placeholder="email or user id" />
          <Field label="Target id" value={draft.target_id} onChange={set('target_id')} error={log.problem?.fields['target_id']} />
          <SelectField label="Outcome" value={draft.outcome} onChange={set('outcome')} options={[{ value: '', label: 'Any' }, { value: 'success', label: 'Success' }, { value: 'failure', label: 'Failure' }]} />
          <Field label="From" type="date" value={draft.from} onChange={set('from')} error={log.problem?.fields['from']} />
          <Field label="To" type="date" value={draft.to} onChange={set('to')} error={log.problem?.fields['to']} />
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Filter
          </button>
          {/* The exports take the filters the list was refused for too: offered only for filters the list accepted, so no 422 body is saved as a file. */}
          {!log.problem && (
            <>
              <a href={exportUrl('csv')} download>
                Export as CSV
              </a>
              <a href={exportUrl('jsonl')} download>
                Export as JSON lines
              </a>
            </>
          )}
        </div>
      </form>
      <FormAlert problem={log.problem} />
      {log.loading && !log.data && <p role="status">Loading…</p>}
      {log.data && (log.data.entries.length === 0 ? <p>No entry matches.</p> : <AuditTable entries={log.data.entries} members={members} />)}
      <PageButtons label="Audit log pages" pages={pages} nextCursor={log.data?.next_cursor} previousText="Newer entries" nextText="Older entries" />
    </>
  );
}

type Entry = ResponseOf<'/api/admin/audit', 'get'>['entries'][number];
type AuditQuery = NonNullable<paths['/api/admin/audit']['get']['parameters']['query']>;

/** A member targeted by an entry is named as the other member pages name them; the id stays as its title (to filter by). */
function targetOf(e: Entry, members: Members): ReactNode {
  if (!e.target_id) return '—';
  const named = e.target_type === 'user' ? members.label(e.target_id) : e.target_id;
  return <span title={`${e.target_type ?? ''} ${e.target_id}`.trim()}>{named === e.target_id ? `${e.target_type ?? ''} ${e.target_id}` : named}</span>;
}

function AuditTable({ entries, members }: { entries: Entry[]; members: Members }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Audit entries">
      <table className="data-table tokens">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Action</th>
            <th scope="col">Outcome</th>
            <th scope="col">Actor</th>
            <th scope="col">Target</th>
            <th scope="col">Address</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{new Date(e.time).toLocaleString()}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td>{e.outcome}</td>
              <td>{e.actor_email ?? e.actor_id ?? '—'}</td>
              <td>{targetOf(e, members)}</td>
              <td>{e.ip ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
