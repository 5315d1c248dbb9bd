// General API tokens (the API-KEY header): named, described, with an expiry; each value shown once.
import { useId, useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { NewTokenValue, TokenTable } from './token-table.tsx';

const EXPIRY = [
  { days: '30', label: '30 days' },
  { days: '90', label: '90 days' },
  { days: '365', label: 'One year' },
  { days: 'never', label: 'Never' },
];

export function ApiTokensSection() {
  const tokens = useLoad((signal) => call(api.GET('/api/auth/user/tokens', { signal })));
  const [value, setValue] = useState<string | undefined>();
  const remove = useAction(async (tokenId: string) => {
    await call(api.DELETE('/api/auth/user/tokens/{token_id}', { params: { path: { token_id: tokenId } } }));
    tokens.update((t) => ({ tokens: t.tokens.filter((x) => x.token_id !== tokenId) }));
  });
  return (
    <section aria-labelledby="api-tokens-title">
      <h2 id="api-tokens-title">API tokens</h2>
      <p className="muted">
        For scripts and programs calling the REST API with the <code>API-KEY</code> header. A token acts with your permissions.
      </p>
      <FormAlert problem={tokens.problem ?? remove.problem} />
      {value && <NewTokenValue value={value} onDone={() => setValue(undefined)} />}
      {tokens.data && <TokenTable caption="Your API tokens" tokens={tokens.data.tokens} consequence="Programs using it stop working." onRevoke={(t) => remove.run(t.token_id)} />}
      <NewApiToken
        onCreated={(token) => {
          setValue(token);
          void tokens.reload();
        }}
      />
    </section>
  );
}

function NewApiToken({ onCreated }: { onCreated: (value: string) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [expiry, setExpiry] = useState('90');
  const expiryId = useId();
  const create = useAction(async () => {
    const created = await call(api.POST('/api/auth/user/tokens', { body: { name, description, expires_in_days: expiry === 'never' ? null : Number(expiry) } }));
    setName('');
    setDescription('');
    onCreated(created.token);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="new-api-token-title">
      <h3 id="new-api-token-title">New API token</h3>
      <FormAlert problem={create.problem} />
      <Field label="Name" value={name} onChange={setName} error={create.fieldError('name')} hint="What uses it, e.g. “nightly report”." />
      <Field label="Description" value={description} onChange={setDescription} error={create.fieldError('description')} />
      <div className="field">
        <label htmlFor={expiryId}>Expires after</label>
        <select id={expiryId} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
          {EXPIRY.map((o) => (
            <option key={o.days} value={o.days}>
              {o.label}
            </option>
          ))}
        </select>
        {create.fieldError('expires_in_days') && <p className="field-error">{create.fieldError('expires_in_days')}</p>}
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={create.pending}>
          Create API token
        </button>
      </div>
    </form>
  );
}
