// Adding or editing an SSO provider. The secret field is write-only: it starts empty, and left
// empty on an edit the stored secret stays. The server's 422 (the issuer's discovery problem among
// them) lands on the field it names. The group mappings start as stored and are sent whole. What the
// form can tell at once (an empty field, an issuer that is not a web address) it says before
// sending; the server checks the same.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { fromRows, GroupMappingsEditor, toRows } from './group-mappings-editor.tsx';
import { ROLE_OPTIONS, type Role } from './roles.ts';
import type { ResponseOf } from '../api/types.ts';

export type Provider = ResponseOf<'/api/admin/sso/providers/{id}', 'get'>;


/** Why `issuer` is not an issuer address, or undefined: an http(s) address (https advised), no user, query or fragment. */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(issuer.trim());
  } catch {
    url = undefined;
  }
  const fine = url && (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.search && !url.hash;
  return fine ? undefined : 'Enter the issuer as an https address, like https://login.example.com (no user, query or #fragment)';
}

type Checked = 'name' | 'type' | 'issuer' | 'client_id';

function formProblems(f: Record<Checked, string>): Partial<Record<Checked, string>> {
  const out: Partial<Record<Checked, string>> = {};
  if (!f.name.trim()) out.name = 'Give the provider a name; the sign-in page shows it';
  if (!/^[a-z0-9_-]{1,40}$/.test(f.type)) out.type = 'Use 1 to 40 lower-case letters, digits, - or _ (it becomes part of the sign-in address)';
  const issuer = f.issuer.trim() ? issuerProblem(f.issuer) : 'Enter the issuer address from your identity provider';
  if (issuer) out.issuer = issuer;
  if (!f.client_id.trim()) out.client_id = 'Enter the client id your identity provider gave this application';
  return out;
}

export function ProviderForm({ provider, onSaved }: { provider?: Provider; onSaved: (p: Provider) => void }) {
  const [type, setType] = useState(provider?.type ?? '');
  const [name, setName] = useState(provider?.name ?? '');
  const [issuer, setIssuer] = useState(provider?.issuer ?? '');
  const [clientId, setClientId] = useState(provider?.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [scopes, setScopes] = useState((provider?.scopes ?? ['openid', 'email', 'profile']).join(' '));
  const [groupsClaim, setGroupsClaim] = useState(provider?.groups_claim ?? '');
  const [jit, setJit] = useState(provider?.jit_provisioning ?? true);
  const [role, setRole] = useState<Role>(provider?.default_role ?? 'user');
  const [mappings, setMappings] = useState(() => toRows(provider?.group_mappings ?? []));
  const [checked, setChecked] = useState<Partial<Record<Checked, string>>>({});
  const save = useAction(async () => {
    const scopeList = scopes.split(/\s+/).filter(Boolean);
    const fields = { type, name, issuer, client_id: clientId, scopes: scopeList, groups_claim: groupsClaim || null, jit_provisioning: jit, default_role: role, group_mappings: fromRows(mappings) };
    const saved = provider
      ? await call(api.PATCH('/api/admin/sso/providers/{id}', { params: { path: { id: provider.id } }, body: { ...fields, ...(secret ? { client_secret: secret } : {}) } }))
      : await call(api.POST('/api/admin/sso/providers', { body: { ...fields, client_secret: secret || null, email_claim: 'email' } }));
    setSecret('');
    onSaved(saved);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = formProblems({ name, type, issuer, client_id: clientId });
    setChecked(problems);
    if (Object.keys(problems).length > 0) return;
    if (!save.pending) void save.run();
  };
  const fieldError = (name: Checked) => checked[name] ?? save.fieldError(name);
  const label = provider ? `Edit provider ${provider.name}` : 'New provider';
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <FormAlert problem={save.problem} />
      <Field label="Name" value={name} onChange={setName} error={fieldError('name')} hint="Shown on the sign-in page." maxLength={100} />
      <Field label="Type" value={type} onChange={setType} error={fieldError('type')} hint="Lower-case slug in the sign-in address, e.g. okta." maxLength={40} />
      <Field label="Issuer URL" type="url" value={issuer} onChange={setIssuer} error={fieldError('issuer')} hint="https://…, as your identity provider names it; its discovery document is fetched and checked when you save." />
      <Field label="Client id" value={clientId} onChange={setClientId} error={fieldError('client_id')} autoComplete="off" />
      <Field
        label="Client secret"
        type="password"
        value={secret}
        onChange={setSecret}
        error={save.fieldError('client_secret')}
        autoComplete="new-password"
        hint={provider?.has_client_secret ? 'A secret is stored and never shown; leave empty to keep it, type to replace it.' : 'Never shown again once saved; empty for a public client.'}
      />
      <Field label="Scopes" value={scopes} onChange={setScopes} error={save.fieldError('scopes')} hint="Separated by spaces." />
      <Field label="Groups claim" value={groupsClaim} onChange={setGroupsClaim} error={save.fieldError('groups_claim')} hint="The claim listing the person's groups; empty if none." />
      <SelectField label="Role of new members" value={role} onChange={(v) => setRole(v as Role)} options={ROLE_OPTIONS} error={save.fieldError('default_role')} />
      <GroupMappingsEditor rows={mappings} onChange={setMappings} problem={save.problem} />
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={jit} onChange={(e) => setJit(e.target.checked)} /> Create members on their first sign-in
        </label>
      </div>
      <div className="actions">
        <button type="submit" className="primary">
          {provider ? 'Save provider' : 'Add provider'}
        </button>
      </div>
    </form>
  );
}
