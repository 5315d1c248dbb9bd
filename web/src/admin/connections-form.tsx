// Adding or editing a warehouse connection: the fields its type needs (a file path, or a server's
// in connections-server-fields.tsx). The password is write-only: it starts empty, and left empty on
// an edit the stored one stays. The server's 422 lands on the field it names; a host the outbound
// rules refuse is said on the host field in words.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { ServerFields, type ConnectionFields } from './connections-server-fields.tsx';
import { hostRefusal, isFileType, TYPE_OPTIONS, typeLabel, type Connection, type ConnectionType } from './connections-words.ts';

const fieldsOf = (s: Connection['settings'] = {}): ConnectionFields => ({
  path: s.path ?? '',
  host: s.host ?? '',
  port: s.port ? String(s.port) : '',
  database: s.database ?? '',
  user: s.user ?? '',
  schema: s.schema ?? '',
  password: '',
  ssl: s.ssl ?? false,
});

/** The form's fields as the API's settings; stored settings the form does not show are kept. */
function settingsOf(type: ConnectionType, f: ConnectionFields, stored: Connection['settings'] = {}) {
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
    ssl: f.ssl,
  };
}

export function ConnectionForm({ connection, onSaved }: { connection?: Connection; onSaved: (c: Connection) => void }) {
  const [type, setType] = useState<ConnectionType>(connection?.type ?? 'duckdb');
  const [name, setName] = useState(connection?.name ?? '');
  const [fields, setFields] = useState(() => fieldsOf(connection?.settings));
  const change = (patch: Partial<ConnectionFields>) => setFields((f) => ({ ...f, ...patch }));
  const save = useAction(async () => {
    const body = { name, settings: settingsOf(type, fields, connection?.settings), ...(fields.password ? { password: fields.password } : {}) };
    const saved = connection
      ? await call(api.PATCH('/api/connections/{connection_id}', { params: { path: { connection_id: connection.id } }, body }))
      : await call(api.POST('/api/connections', { body: { ...body, type } }));
    change({ password: '' });
    onSaved(saved);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  const refusal = hostRefusal(save.problem);
  const errorOf = (name: string) => save.fieldError(name) ?? (name === 'settings.host' ? refusal : undefined);
  return (
    <form onSubmit={submit} noValidate aria-label={connection ? `Edit connection ${connection.name}` : 'New connection'}>
      <FormAlert problem={refusal ? undefined : save.problem} />
      <Field label="Name" value={name} onChange={setName} error={save.fieldError('name')} hint="What people see when they pick the data to ask about." maxLength={200} />
      {connection ? (
        <p>Type: {typeLabel(type)} (a connection keeps its type; add a new one for another kind of warehouse).</p>
      ) : (
        <SelectField label="Type" value={type} onChange={(v) => setType(v as ConnectionType)} options={TYPE_OPTIONS} error={save.fieldError('type')} />
      )}
      {isFileType(type) ? (
        <Field
          label="File"
          value={fields.path}
          onChange={(path) => change({ path })}
          error={save.fieldError('settings.path')}
          hint="The path of the file inside the organization's warehouse folder on the server, e.g. sales/warehouse.duckdb."
        />
      ) : (
        <ServerFields type={type} fields={fields} onChange={change} errorOf={errorOf} hasPassword={connection?.has_password ?? false} />
      )}
      <div className="actions">
        <button type="submit" className="primary">
          {connection ? 'Save connection' : 'Add connection'}
        </button>
      </div>
    </form>
  );
}
