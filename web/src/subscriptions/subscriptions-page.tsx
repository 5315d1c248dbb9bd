// /subscriptions: the person's subscriptions (admins: every one of the organization, with pause and
// resume), each named by what it sends, with its schedule, channels and status, a test sent now, and
// its run log.
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useMe } from '../session/session.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { RunLog } from './run-log.tsx';
import { nextRunText, scheduleText } from './schedule-text.ts';

type Subscription = ResponseOf<'/api/subscriptions/{id}', 'get'>;

export function SubscriptionsPage() {
  useDocumentTitle('Subscriptions');
  const me = useMe();
  const [all, setAll] = useState(false);
  const list = useLoad((signal) => call(api.GET('/api/subscriptions', { params: { query: { all: all ? 'true' : 'false' } }, signal })), String(all));
  const titles = useTitles();
  return (
    <section className="saved-page" aria-labelledby="subscriptions-title">
      <h1 id="subscriptions-title">Subscriptions</h1>
      <p className="muted">Reports sent on a schedule, as their owner, by mail and webhook. Subscribe from a saved question or a dashboard.</p>
      {me.role === 'admin' && (
        <div className="field">
          <label className="check">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Every subscription of the organization
          </label>
        </div>
      )}
      <FormAlert problem={list.problem} />
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.subscriptions.length === 0 ? (
          <p>No subscriptions yet.</p>
        ) : (
          <ul className="cards" aria-label="Subscriptions">
            {list.data.subscriptions.map((s) => (
              <SubscriptionCard key={s.id} s={s} title={titles.get(s.saved_question_id ?? s.dashboard_id ?? '')} mine={s.owner_id === me.user_id} onChange={() => void list.reload()} />
            ))}
          </ul>
        ))}
    </section>
  );
}

/**
 * The titles of the saved questions and dashboards the person may read, by id, to name what each
 * subscription sends; one a person may not read (an admin looking at a member's private question)
 * keeps its kind for a name.
 */
function useTitles(): Map<string, string> {
  const questions = useLoad((signal) => call(api.GET('/api/saved_questions', { signal })));
  const dashboards = useLoad((signal) => call(api.GET('/api/dashboards', { signal })));
  return new Map([...(questions.data?.questions ?? []), ...(dashboards.data?.dashboards ?? [])].map((x) => [x.id, x.title]));
}

function channelsText(s: Subscription): string {
  return s.channels.map((c) => (c.type === 'email' ? c.to.join(', ') : `${c.format} webhook (${new URL(c.url).host})`)).join('; ');
}

function SubscriptionCard({ s, title, mine, onChange }: { s: Subscription; title: string | undefined; mine: boolean; onChange: () => void }) {
  const [sent, setSent] = useState<string | undefined>();
  const act = useAction(async (what: 'pause' | 'resume' | 'test' | 'delete') => {
    const path = { params: { path: { id: s.id } } };
    if (what === 'test') return setSent((await call(api.POST('/api/subscriptions/{id}/send_now', path))).status);
    if (what === 'delete') await call(api.DELETE('/api/subscriptions/{id}', path));
    else await call(api.PATCH('/api/subscriptions/{id}', { ...path, body: { status: what === 'pause' ? 'paused' : 'active' } }));
    onChange();
  });
  return (
    <li className="card">
      <div className="row">
        {s.saved_question_id ? (
          <Link to={`/saved/${encodeURIComponent(s.saved_question_id)}`}>{title ?? 'Saved question'}</Link>
        ) : (
          <Link to={`/dashboards/${encodeURIComponent(s.dashboard_id ?? '')}`}>{title ?? 'Dashboard'}</Link>
        )}
        <span className="muted">{s.saved_question_id ? 'saved question' : 'dashboard'}</span>
        <span className="spacer" />
        <span className="muted">{s.status === 'stopped' ? `Stopped: ${s.stopped_reason ?? ''}` : s.status === 'paused' ? 'Paused' : `Next: ${nextRunText(s.next_run_at!, s.schedule.timezone)}`}</span>
      </div>
      <p className="muted">
        {scheduleText(s.schedule)} to {channelsText(s)}
        {s.alert && ` when ${s.alert.column} ${s.alert.op} ${s.alert.threshold}`}
      </p>
      <FormAlert problem={act.problem} />
      {sent && <p role="status">{sent === 'sent' ? 'Test sent.' : `Test run: ${sent}`}</p>}
      <div className="actions">
        <button type="button" disabled={act.pending} onClick={() => void act.run('test')}>
          Send a test now
        </button>
        {s.status === 'active' ? (
          <button type="button" disabled={act.pending} onClick={() => void act.run('pause')}>
            Pause
          </button>
        ) : (
          <button type="button" disabled={act.pending} onClick={() => void act.run('resume')}>
            Resume
          </button>
        )}
        {mine && (
          <button type="button" disabled={act.pending} onClick={() => void act.run('delete')}>
            Delete
          </button>
        )}
      </div>
      <RunLog id={s.id} />
    </li>
  );
}
