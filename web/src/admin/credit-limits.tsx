// Monthly credit limits: the organization's and members', with this month's use. An empty amount
// removes a limit. A reached limit refuses new answers until the next month (UTC). Members are
// picked and shown by name and email.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { MemberPicker, type Members } from './member-picker.tsx';

export function CreditLimits({ members }: { members: Members }) {
  const limits = useLoad((signal) => call(api.GET('/api/admin/credit-limits', { signal })));
  const [member, setMember] = useState('');
  const [amount, setAmount] = useState('');
  const [saved, setSaved] = useState('');
  const save = useAction(async () => {
    setSaved('');
    const body = { monthly_credits: amount.trim() === '' ? null : Number(amount) };
    if (member) await call(api.PUT('/api/admin/credit-limits/users/{user_id}', { params: { path: { user_id: member } }, body }));
    else await call(api.PUT('/api/admin/credit-limits/organization', { body }));
    setSaved(`${body.monthly_credits === null ? 'Limit removed' : 'Limit set'} for ${member ? members.label(member) : 'the organization'}.`);
    await limits.reload();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  return (
    <section aria-labelledby="limits-title">
      <h2 id="limits-title">Monthly credit limits</h2>
      <FormAlert problem={limits.problem} />
      {limits.data &&
        (limits.data.limits.length === 0 ? (
          <p>No limit: answers are never refused for credits.</p>
        ) : (
          <ul className="cards" aria-label="Credit limits">
            {limits.data.limits.map((l) => (
              <li key={l.user_id ?? 'org'} className="card row">
                <span>{l.user_id ? members.label(l.user_id) : 'Organization'}</span>
                <span className="spacer" />
                <span>
                  {l.used_this_month.toFixed(2)} of {l.monthly_credits} credits used this month
                </span>
              </li>
            ))}
          </ul>
        ))}
      <form onSubmit={submit} noValidate aria-labelledby="limits-title">
        <FormAlert problem={save.problem} />
        {saved && <Note>{saved}</Note>}
        <MemberPicker label="Limit of" members={members} value={member} onChange={setMember} none="The organization" error={save.problem?.fields['user_id']} />
        <Field label="Monthly credits" type="number" min={0} step="any" value={amount} onChange={setAmount} error={save.fieldError('monthly_credits')} hint="Empty removes the limit." />
        <div className="actions">
          <button type="submit">Save limit</button>
        </div>
      </form>
    </section>
  );
}
