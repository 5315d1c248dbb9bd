// Adding or editing a warehouse connection: the fields its type needs (a file path, or host, port,
// database, user, password, schema and TLS). The password is write-only: it starts empty, and left
// empty on an edit the stored one stays. The server's 422 lands on the field it names; a host the
// outbound rules refuse is said on the host field in words.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { hostRefusal, isFileType, TYPE_OPTIONS, typeLabel, type Connection, type ConnectionType } from './connections-words.ts';

const DEFAULT_PORT: Partial<Record<ConnectionType, string>> = { postgresql: '5432', mysql: '3306', mariadb: '3306' };

/** The form's text fields as the API's settings; stored settings the form does not show are kept. */
function settingsOf(type: ConnectionType, f: Record<'path' | 'host' | 'port' | 'database' | 'user' | 'schema', string>, ssl: boolean, stored: Connection['settings'] = {}) {
  if (isFileType(type)) return { ...stored, path: f.path };
  const { path: _path, ...rest } = stored;
  const optional = (v: string) => v.trim() || undefined;
  return {
    ...rest,
    host: f.host.trim(),
    // Not a number reaches the server as null, which names the field.
    port: f.port.trim() ? Number(f.port) : undefined,
    database: optional(f.database),
    user: optional(f.user),
    schema: type === 'postgresql' ? optional(f.schema) : undefined,
    ssl,
  };
}

export function ConnectionForm({ connection, onSaved }: { connection?: Connection; onSaved: (c: Connection) => void }) {
  const s = connection?.settings ?? {};
  const [type, setType] = useState<ConnectionType>(connection?.type ?? 'duckdb');
  const [name, setName] = useState(connection?.name ?? '');
  const [fields, setFields] = useState({ path: s.path ?? '', host: s.host ?? '', port: s.port ? String(s.port) : '', database: s.database ?? '', user: s.user ?? '', schema: s.schema ?? '' });
  const [ssl, setSsl] = useState(s.ssl ?? false);
  const [password, setPassword] = useState('');
  const set = (key: keyof typeof fields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  const save = useAction(async () => {
    const settings = settingsOf(type, fields, ssl, connection?.settings);
    const saved = connection
      ? await call(api.PATCH('/api/connections/{connection_id}', { params: { path: { connection_id: connection.id } }, body: { name, settings, ...(password ? { password } : {}) } }))
      : await call(api.POST('/api/connections', { body: { name, type, settings, ...(password ? { password } : {}) } }));
    setPassword('');
    onSaved(saved);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  const hostError = save.fieldError('settings.host') ?? hostRefusal(save.problem);
  const file = isFileType(type);
  return (
    <form onSubmit={submit} noValidate aria-label={connection ? `Edit connection ${connection.name}` : 'New connection'}>
      <FormAlert problem={hostRefusal(save.problem) ? undefined : save.problem} />
      <Field label="Name" value={name} onChange={setName} error={save.fieldError('name')} hint="What people see when they pick the data to ask about." maxLength={200} />
      {connection ? (
        <p>Type: {typeLabel(type)} (a connection keeps its type; add a new one for another kind of warehouse).</p>
      ) : (
        <SelectField label="Type" value={type} onChange={(v) => setType(v as ConnectionType)} options={TYPE_OPTIONS} error={save.fieldError('type')} />
      )}
      {file ? (
        <Field
          label="File"
          value={fields.path}
          onChange={set('path')}
          error={save.fieldError('settings.path')}
          hint="The path of the file inside the organization's warehouse folder on the server, e.g. sales/warehouse.duckdb."
        />
      ) : (
        <>
          <Field label="Host" value={fields.host} onChange={set('host')} error={hostError} hint="Name or address of the database server." autoComplete="off" />
          <Field label="Port" value={fields.port} onChange={set('port')} error={save.fieldError('settings.port')} inputMode="numeric" hint={`Empty for the usual ${DEFAULT_PORT[type] ?? ''}.`} />
          <Field label="Database" value={fields.database} onChange={set('database')} error={save.fieldError('settings.database')} autoComplete="off" />
          <Field label="User" value={fields.user} onChange={set('user')} error={save.fieldError('settings.user')} autoComplete="off" hint="A user that may only read is best: Sextant never writes." />
          <Field
            label="Password"
            type="password"
            value={password}
            onChange={setPassword}
            error={save.fieldError('password')}
            autoComplete="new-password"
            hint={connection?.has_password ? 'A password is stored and never shown; leave empty to keep it, type to replace it.' : 'Never shown again once saved.'}
          />
          {type === 'postgresql' && (
            <Field label="Schema" value={fields.schema} onChange={set('schema')} error={save.fieldError('settings.schema')} hint="Where unqualified table names are looked up; empty for public." />
          )}
          <div className="field">
            <label className="check">
              <input type="checkbox" checked={ssl} onChange={(e) => setSsl(e.target.checked)} /> Use TLS (the server's certificate is checked)
            </label>
          </div>
        </>
      )}
      <div className="actions">
        <button type="submit" className="primary">
          {connection ? 'Save connection' : 'Add connection'}
        </button>
      </div>
    </form>
  );
}
