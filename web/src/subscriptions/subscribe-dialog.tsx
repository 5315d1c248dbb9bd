// "Subscribe" on a saved question or a dashboard: when, to whom (mail to members, or a Slack, Teams or
// JSON webhook), and for a saved question optionally an alert that sends only when a threshold is
// crossed (alerts watch one question's first row). Once saved, a test can be sent.
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { useMe } from '../session/session.tsx';
import { DialogButton } from '../ui/dialog-button.tsx';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { defaultSchedule, ScheduleFields, scheduleBody } from './schedule-fields.tsx';
import { SelectField } from './select-field.tsx';

/** What is subscribed to: a saved question, or a dashboard (all its tiles in one report). */
export type Subject = { savedQuestionId: string; dashboardId?: undefined } | { dashboardId: string; savedQuestionId?: undefined };

export function SubscribeButton(subject: Subject) {
  return (
    <DialogButton label="Subscribe" titleId="subscribe-title">
      {(close) => <SubscribeForm subject={subject} onClose={close} />}
    </DialogButton>
  );
}

type Format = 'slack' | 'teams' | 'json';
const OPS = ['<', '<=', '>', '>=', '=', '!='] as const;

function SubscribeForm({ subject, onClose }: { subject: Subject; onClose: () => void }) {
  const me = useMe();
  const [schedule, setSchedule] = useState(defaultSchedule);
  const [to, setTo] = useState(me.email);
  const [webhook, setWebhook] = useState('');
  const [format, setFormat] = useState<Format>('slack');
  const [alertColumn, setAlertColumn] = useState('');
  const [op, setOp] = useState<Op>('<');
  const [threshold, setThreshold] = useState('');
  const [created, setCreated] = useState<string | undefined>();
  const save = useAction(async () => {
    const addresses = to.split(/[\s,;]+/).filter(Boolean);
    const channels = [...(addresses.length ? [{ type: 'email' as const, to: addresses }] : []), ...(webhook ? [{ type: 'webhook' as const, url: webhook, format }] : [])];
    const alert = alertColumn ? { column: alertColumn, op, threshold: Number(threshold) } : undefined;
    const what = subject.dashboardId !== undefined ? { dashboard_id: subject.dashboardId } : { saved_question_id: subject.savedQuestionId };
    const s = await call(api.POST('/api/subscriptions', { body: { ...what, schedule: scheduleBody(schedule) as never, channels, ...(alert ? { alert } : {}) } }));
    setCreated(s.id);
  });
  if (created) return <Subscribed id={created} onClose={onClose} />;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h2 id="subscribe-title">{subject.dashboardId !== undefined ? 'Subscribe to this dashboard' : 'Subscribe to this question'}</h2>
      <FormAlert problem={save.problem} />
      <ScheduleFields value={schedule} onChange={setSchedule} error={save.fieldError} />
      <Field label="Mail to (members of the organization)" value={to} onChange={setTo} error={save.fieldError('channels.0.to')} />
      <Field label="Webhook URL (optional)" type="url" value={webhook} onChange={setWebhook} error={save.fieldError('channels.1.url') ?? save.fieldError('channels.0.url')} />
      {webhook && (
        <SelectField label="Webhook format" value={format} onChange={setFormat}>
          <option value="slack">Slack</option>
          <option value="teams">Microsoft Teams</option>
          <option value="json">JSON</option>
        </SelectField>
      )}
      {subject.savedQuestionId !== undefined && <AlertFields column={alertColumn} onColumn={setAlertColumn} op={op} onOp={setOp} threshold={threshold} onThreshold={setThreshold} />}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={save.pending}>
          Subscribe
        </button>
      </div>
    </form>
  );
}

/** After subscribing: send a test now, or go to the list. */
function Subscribed({ id, onClose }: { id: string; onClose: () => void }) {
  const [tested, setTested] = useState<string | undefined>();
  const test = useAction(async () => setTested((await call(api.POST('/api/subscriptions/{id}/send_now', { params: { path: { id } } }))).status));
  return (
    <>
      <h2 id="subscribe-title">Subscribed</h2>
      <FormAlert problem={test.problem} />
      {tested && <p role="status">{tested === 'sent' ? 'Test sent.' : `Test run: ${tested}`}</p>}
      <p>
        See it and its run log under <Link to="/subscriptions">Subscriptions</Link>.
      </p>
      <div className="actions">
        <button type="button" disabled={test.pending} onClick={() => void test.run()}>
          Send a test now
        </button>
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </>
  );
}

type Op = (typeof OPS)[number];

/** The optional alert: a column of the first row, a comparison and a threshold. */
function AlertFields(a: { column: string; onColumn: (v: string) => void; op: Op; onOp: (v: Op) => void; threshold: string; onThreshold: (v: string) => void }) {
  return (
    <fieldset className="field">
      <legend>Alert (optional): send only when the first row crosses a threshold</legend>
      <Field label="Column" value={a.column} onChange={a.onColumn} />
      {a.column && (
        <>
          <SelectField label="Condition" value={a.op} onChange={a.onOp}>
            {OPS.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </SelectField>
          <Field label="Threshold" type="number" value={a.threshold} onChange={a.onThreshold} required />
        </>
      )}
    </fieldset>
  );
}
