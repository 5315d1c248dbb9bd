// /admin/organization: MFA required, the email domains whose addresses join by themselves once
// verified and the role they get, the lifetime of new sessions, whether production changes only
// through environments, and the evaluation gate on merges. A mailed domain link lands here
// (?domain_token=...) and is spent once the admin is signed in.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { nestedFieldError } from './nested-field-error.ts';
import { EmailDomainList, type EmailDomain } from './email-domain-list.tsx';
import { EvaluationGateForm } from './evaluation-gate-form.tsx';
import { ROLE_OPTIONS, type Role } from './roles.ts';

type Settings = ResponseOf<'/api/admin/organization/settings', 'get'>;

export function OrganizationPage() {
  useDocumentTitle('Organization settings');
  const settings = useLoad((signal) => call(api.GET('/api/admin/organization/settings', { signal })));
  const changed = (d: EmailDomain) => settings.update((s) => ({ ...s, email_domains: s.email_domains.map((x) => (x.domain === d.domain ? d : x)) }));
  return (
    <>
      <h1>Organization settings</h1>
      <DomainLink onVerified={changed} />
      <FormAlert problem={settings.problem} />
      {settings.loading && !settings.data && <p role="status">Loading…</p>}
      {settings.data && <SettingsForm settings={settings.data} onSaved={(next) => settings.update(() => next)} />}
      {settings.data && <EmailDomainList domains={settings.data.email_domains} onChanged={changed} />}
      <EvaluationGateForm />
    </>
  );
}

/** Spends the mailed link's token from the address once, then drops it from the address bar. */
function DomainLink({ onVerified }: { onVerified: (d: EmailDomain) => void }) {
  const [params, setParams] = useSearchParams();
  const token = params.get('domain_token');
  const started = useRef(false);
  const [verified, setVerified] = useState('');
  const confirm = useAction(async (t: string) => {
    const d = await call(api.POST('/api/admin/email_domains/verify_by_email/confirm', { body: { token: t } }));
    onVerified(d);
    setVerified(`${d.domain} is verified.`);
  });
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    setParams({}, { replace: true });
    void confirm.run(token);
  }, [token, confirm, setParams]);
  return (
    <>
      <FormAlert problem={confirm.problem} />
      {verified && <Note>{verified}</Note>}
    </>
  );
}

/** The form, filled from the settings read once; what was typed stays through a refusal. */
function SettingsForm({ settings: s, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const [mfa, setMfa] = useState(s.mfa_required);
  const [domains, setDomains] = useState(s.allowed_email_domains.join(', '));
  const [role, setRole] = useState<Role>(s.join_default_role);
  const [hours, setHours] = useState(String(s.session_lifetime_seconds / 3600));
  const [throughEnvironments, setThroughEnvironments] = useState(s.production_through_environments);
  const [externalRecipients, setExternalRecipients] = useState(s.subscription_external_recipients);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const body = {
      mfa_required: mfa,
      allowed_email_domains: domains.split(/[\s,]+/).filter(Boolean),
      join_default_role: role,
      session_lifetime_seconds: Math.round(Number(hours) * 3600),
      production_through_environments: throughEnvironments,
      subscription_external_recipients: externalRecipients,
    };
    onSaved(await call(api.PATCH('/api/admin/organization/settings', { body })));
    setSaved(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Organization settings">
      <FormAlert problem={save.problem} />
      {saved && <Note>Settings saved.</Note>}
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={mfa} onChange={(e) => setMfa(e.target.checked)} /> Everyone must use two-factor authentication
        </label>
      </div>
      <Field
        label="Email domains that join by themselves"
        value={domains}
        onChange={setDomains}
        error={nestedFieldError(save.problem, 'allowed_email_domains')}
        hint="Separated by commas, e.g. example.com. Once a domain is verified (below), people signing up with its addresses join the organization."
      />
      <SelectField label="Role of people who join by their domain" value={role} onChange={(v) => setRole(v as Role)} options={ROLE_OPTIONS} error={save.fieldError('join_default_role')} />
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={throughEnvironments} onChange={(e) => setThroughEnvironments(e.target.checked)} aria-describedby="through-environments-hint" /> Changes to production only
          through environments
        </label>
        <p className="field-hint" id="through-environments-hint">
          Like a protected branch: nobody edits production&apos;s knowledge directly, not even admins. Changes are made in an environment, reviewed and merged (behind the evaluation gate below).
        </p>
      </div>
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={externalRecipients} onChange={(e) => setExternalRecipients(e.target.checked)} /> Subscriptions may mail addresses outside the organization
        </label>
      </div>
      <Field label="Session lifetime (hours)" type="number" min={0.25} step="any" value={hours} onChange={setHours} error={save.fieldError('session_lifetime_seconds')} hint="From 15 minutes to 90 days; sessions already open keep theirs." />
      <div className="actions">
        <button type="submit" className="primary">
          Save settings
        </button>
      </div>
    </form>
  );
}
