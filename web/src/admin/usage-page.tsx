// /admin/usage: questions, queries, tokens and credits per member and day over a date range, and
// the monthly credit limits of the organization and of members. Members show by name and email.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { CreditLimits } from './credit-limits.tsx';
import { MemberPicker, useMembers, type Members } from './member-picker.tsx';

export function UsagePage() {
  useDocumentTitle('Usage and credit limits');
  const [draft, setDraft] = useState({ from: '', to: '', user: '' });
  const [range, setRange] = useState(draft);
  const members = useMembers();
  const usage = useLoad(
    (signal) => call(api.GET('/api/admin/usage', { params: { query: { from: range.from || undefined, to: range.to || undefined, user_id: range.user.trim() || undefined } }, signal })),
    JSON.stringify(range),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setRange(draft);
  };
  const days = usage.data?.days ?? [];
  return (
    <>
      <h1>Usage and credit limits</h1>
      <section aria-labelledby="usage-title">
        <h2 id="usage-title">Usage per member and day</h2>
        <form onSubmit={submit} noValidate aria-label="Usage range" className="row">
          <Field label="From" type="date" value={draft.from} onChange={(from) => setDraft((d) => ({ ...d, from }))} error={usage.problem?.fields['from']} />
          <Field label="To" type="date" value={draft.to} onChange={(to) => setDraft((d) => ({ ...d, to }))} error={usage.problem?.fields['to']} />
          <MemberPicker label="Member" members={members} value={draft.user} onChange={(user) => setDraft((d) => ({ ...d, user }))} none="Everyone" error={usage.problem?.fields['user_id']} />
          <div className="actions">
            <button type="submit">Show usage</button>
          </div>
        </form>
        <FormAlert problem={usage.problem} />
        {usage.loading && !usage.data && <p role="status">Loading…</p>}
        {usage.data && (
          <p className="muted">
            From {usage.data.from.slice(0, 10)} to {usage.data.to.slice(0, 10)} (UTC).
          </p>
        )}
        {usage.data &&
          (days.length === 0 ? (
            <p>No use in this range.</p>
          ) : (
            <UsageTable days={days} members={members} />
          ))}
      </section>
      <CreditLimits members={members} />
    </>
  );
}

type UsageDay = ResponseOf<'/api/admin/usage', 'get'>['days'][number];

function UsageTable({ days, members }: { days: UsageDay[]; members: Members }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Usage table">
      <table className="data-table usage-table">
        <thead>
          <tr>
            {['Day', 'Member', 'Questions', 'Queries', 'Input tokens', 'Output tokens', 'Credits'].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={`${d.day}/${d.user_id}`}>
              <td>{d.day}</td>
              <td>{members.label(d.user_id)}</td>
              <td className="num">{d.questions}</td>
              <td className="num">{d.queries}</td>
              <td className="num">{d.input_tokens}</td>
              <td className="num">{d.output_tokens}</td>
              <td className="num">{d.credits.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
