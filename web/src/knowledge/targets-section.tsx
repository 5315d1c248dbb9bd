// Warehouse target overrides of an environment (per connection: the dev schema or database its
// questions and metadata sync use instead of production's), and the sync that refreshes the
// environment's table documentation from them.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Field } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { Environment } from './environments-page.tsx';

type Targets = Environment['targets'];

export function TargetsSection({ env, onChange }: { env: Environment; onChange: (env: Environment) => void }) {
  const [connection, setConnection] = useState('');
  const [schema, setSchema] = useState('');
  const [database, setDatabase] = useState('');
  const [synced, setSynced] = useState(false);
  const put = (targets: Targets) => call(api.PUT('/api/environments/{id}/targets', { params: { path: { id: env.id } }, body: { targets } }));
  const add = useAction(async () => {
    const target = { ...(schema.trim() ? { schema: schema.trim() } : {}), ...(database.trim() ? { database: database.trim() } : {}) };
    onChange(await put({ ...env.targets, [connection.trim()]: target }));
    setConnection('');
    setSchema('');
    setDatabase('');
  });
  const remove = useAction(async (name: string) => onChange(await put(Object.fromEntries(Object.entries(env.targets).filter(([c]) => c !== name)))));
  const sync = useAction(async () => {
    setSynced(false);
    await call(api.POST('/api/environments/{id}/sync_target', { params: { path: { id: env.id } } }));
    setSynced(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!add.pending) void add.run();
  };
  const entries = Object.entries(env.targets);
  const fieldError = (name: string) => add.fieldError(name) ?? Object.entries(add.problem?.fields ?? {}).find(([k]) => k.startsWith('targets.') && k.endsWith(`.${name}`))?.[1];
  return (
    <section aria-labelledby="targets-title">
      <h2 id="targets-title">Warehouse targets</h2>
      {entries.length === 0 ? (
        <p>Questions in this environment read production’s schemas.</p>
      ) : (
        <ul className="cards" aria-label="Target overrides">
          {entries.map(([name, t]) => (
            <li key={name} className="card row">
              <span>
                <code>{name}</code> reads {Object.entries(t).map(([k, v]) => `${k} ${v}`).join(', ')}
              </span>
              <span className="spacer" />
              <ConfirmButton label={`Remove the target of ${name}`} question={`Read production’s schema for ${name} again?`} onConfirm={() => remove.run(name)}>
                Remove
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      <FormAlert problem={remove.problem} />
      <form onSubmit={submit} noValidate aria-label="Add a target override">
        <FormAlert problem={add.problem} />
        <Field label="Connection" value={connection} onChange={setConnection} error={add.fieldError('targets')} />
        <Field label="Schema" value={schema} onChange={setSchema} error={fieldError('schema')} />
        <Field label="Database" value={database} onChange={setDatabase} error={fieldError('database')} hint="Optional, for warehouses that name one." />
        <div className="actions">
          <button type="submit">Set target</button>
          <button type="button" onClick={() => void sync.run()}>
            Sync table documentation from the targets
          </button>
        </div>
      </form>
      {synced && <Note>Table documentation refreshed from the targets.</Note>}
      <FormAlert problem={sync.problem} />
    </section>
  );
}
