// The fields of a server warehouse (PostgreSQL, MySQL, MariaDB): host, port, database, user, the
// write-only password, a schema for PostgreSQL, and TLS.
import { Field } from '../ui/field.tsx';
import type { ConnectionType } from './connections-words.ts';

export interface ConnectionFields {
  path: string;
  host: string;
  port: string;
  database: string;
  user: string;
  schema: string;
  password: string;
  ssl: boolean;
}

const DEFAULT_PORT: Partial<Record<ConnectionType, string>> = { postgresql: '5432', mysql: '3306', mariadb: '3306' };

interface Props {
  type: ConnectionType;
  fields: ConnectionFields;
  onChange: (patch: Partial<ConnectionFields>) => void;
  /** The server's message for a field of the body (`settings.host`, `password`). */
  errorOf: (name: string) => string | undefined;
  hasPassword: boolean;
}

export function ServerFields({ type, fields: f, onChange, errorOf, hasPassword }: Props) {
  return (
    <>
      <Field label="Host" value={f.host} onChange={(host) => onChange({ host })} error={errorOf('settings.host')} hint="Name or address of the database server." autoComplete="off" />
      <Field label="Port" value={f.port} onChange={(port) => onChange({ port })} error={errorOf('settings.port')} inputMode="numeric" hint={`Empty for the usual ${DEFAULT_PORT[type] ?? ''}.`} />
      <Field label="Database" value={f.database} onChange={(database) => onChange({ database })} error={errorOf('settings.database')} autoComplete="off" />
      <Field label="User" value={f.user} onChange={(user) => onChange({ user })} error={errorOf('settings.user')} autoComplete="off" hint="A user that may only read is best: Sextant never writes." />
      <Field
        label="Password"
        type="password"
        value={f.password}
        onChange={(password) => onChange({ password })}
        error={errorOf('password')}
        autoComplete="new-password"
        hint={hasPassword ? 'A password is stored and never shown; leave empty to keep it, type to replace it.' : 'Never shown again once saved.'}
      />
      {type === 'postgresql' && (
        <Field label="Schema" value={f.schema} onChange={(schema) => onChange({ schema })} error={errorOf('settings.schema')} hint="Where unqualified table names are looked up; empty for public." />
      )}
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={f.ssl} onChange={(e) => onChange({ ssl: e.target.checked })} /> Use TLS (the server's certificate is checked)
        </label>
      </div>
    </>
  );
}
