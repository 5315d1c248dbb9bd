// The organization's claimed email domains: each one's status, the TXT record to publish, a Verify
// button (DNS) and, where DNS is out of reach, a link mailed to an administrative mailbox at the domain.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

export type EmailDomain = ResponseOf<'/api/admin/email_domains', 'get'>['email_domains'][number];
type Mailbox = 'admin' | 'administrator' | 'hostmaster' | 'postmaster' | 'webmaster';
const MAILBOXES: Mailbox[] = ['postmaster', 'hostmaster', 'webmaster', 'admin', 'administrator'];

const STATUS_TEXT = { pending: 'not verified: does nothing yet', verified: 'verified', taken: 'verified by another organization' } as const;

export function EmailDomainList({ domains, onChanged }: { domains: EmailDomain[]; onChanged: (d: EmailDomain) => void }) {
  const [done, setDone] = useState('');
  const verify = useAction(async (domain: string) => {
    setDone('');
    const d = await call(api.POST('/api/admin/email_domains/{domain}/verify', { params: { path: { domain } } }));
    onChanged(d);
    setDone(`${domain} is verified.`);
  });
  const mail = useAction(async (domain: string, mailbox: Mailbox) => {
    setDone('');
    const sent = await call(api.POST('/api/admin/email_domains/{domain}/verify_by_email', { params: { path: { domain } }, body: { mailbox } }));
    setDone(`A link was mailed to ${sent.sent_to}; an admin of this organization opens it while signed in.`);
  });
  if (domains.length === 0) return null;
  return (
    <section aria-labelledby="domains-title">
      <h2 id="domains-title">Email domains</h2>
      <p className="muted">A domain joins people and shows this organization&apos;s sign-in only once verified.</p>
      <FormAlert problem={verify.problem ?? mail.problem} />
      {done && <Note>{done}</Note>}
      <ul className="cards" aria-label="Email domains">
        {domains.map((d) => (
          <DomainCard key={d.domain} d={d} onVerify={() => void verify.run(d.domain)} onMail={(m) => void mail.run(d.domain, m)} />
        ))}
      </ul>
    </section>
  );
}

function DomainCard({ d, onVerify, onMail }: { d: EmailDomain; onVerify: () => void; onMail: (m: Mailbox) => void }) {
  const [mailbox, setMailbox] = useState<Mailbox>('postmaster');
  return (
    <li className="card" aria-label={d.domain}>
      <div className="row">
        <strong>{d.domain}</strong>
        <span className="tag" data-status={d.status}>
          {STATUS_TEXT[d.status]}
        </span>
        {d.verified_at && <span className="muted">since {new Date(d.verified_at).toLocaleDateString()}</span>}
      </div>
      {d.status === 'pending' && d.txt_record && (
        <>
          <p>
            Publish a TXT record named <code>{d.txt_record.name}</code> with the value <code>{d.txt_record.value}</code>, then verify.
          </p>
          <div className="row">
            <button type="button" aria-label={`Verify ${d.domain}`} onClick={onVerify}>
              Verify
            </button>
            <span className="muted">or mail a link to</span>
            <select aria-label={`Mailbox at ${d.domain}`} value={mailbox} onChange={(e) => setMailbox(e.target.value as Mailbox)}>
              {MAILBOXES.map((m) => (
                <option key={m} value={m}>{`${m}@${d.domain}`}</option>
              ))}
            </select>
            <button type="button" aria-label={`Mail a link to verify ${d.domain}`} onClick={() => onMail(mailbox)}>
              Mail a link
            </button>
          </div>
        </>
      )}
    </li>
  );
}
