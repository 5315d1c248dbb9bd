// General API tokens (the API-KEY header): named, described, with an expiry; each value shown once.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { NewTokenValue, TokenTable } from './token-table.tsx';

const EXPIRY = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: 'One year' },
  { value: 'never', label: 'Never' },
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
      <SelectField label="Expires after" value={expiry} onChange={setExpiry} options={EXPIRY} error={create.fieldError('expires_in_days')} />
      <div className="actions">
        <button type="submit" className="primary" disabled={create.pending}>
          Create API token
        </button>
      </div>
    </form>
  );
}
