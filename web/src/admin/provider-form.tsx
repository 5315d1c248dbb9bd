// Adding or editing an SSO provider. The secret field is write-only: it starts empty, and left
// empty on an edit the stored secret stays. The server's 422 (the issuer's discovery problem among
// them) lands on the field it names. The group mappings start as stored and are sent whole.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { fromRows, GroupMappingsEditor, toRows } from './group-mappings-editor.tsx';
import { ROLE_OPTIONS, type Role } from './roles.ts';
import type { ResponseOf } from '../api/types.ts';

export type Provider = ResponseOf<'/api/admin/sso/providers/{id}', 'get'>;

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
    if (!save.pending) void save.run();
  };
  const label = provider ? `Edit provider ${provider.name}` : 'New provider';
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <FormAlert problem={save.problem} />
      <Field label="Name" value={name} onChange={setName} error={save.fieldError('name')} hint="Shown on the sign-in page." maxLength={100} />
      <Field label="Type" value={type} onChange={setType} error={save.fieldError('type')} hint="Lower-case slug in the sign-in address, e.g. okta." maxLength={40} />
      <Field label="Issuer URL" type="url" value={issuer} onChange={setIssuer} error={save.fieldError('issuer')} hint="Its discovery document is fetched and checked when you save." />
      <Field label="Client id" value={clientId} onChange={setClientId} error={save.fieldError('client_id')} autoComplete="off" />
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
